import { HttpResponse } from 'msw';
import type { MediaKind } from '@/config/enums';
import type { StoryStage } from '@/config/story';
import type { AdditionalVideo, ScriptBoard } from '@/services/schemas/batch';
import type { PublicContent } from '@/services/schemas/content';
import type { CustomerTransfer } from '@/services/schemas/customers';
import type { CreditHistoryEntry } from '@/services/schemas/payments';
import type { Storyboard } from '@/services/schemas/story';

/**
 * The data helpers the fake backend is built on: the answers' envelopes, the request facts every
 * handler reads, one fake clock, and factories for the entities (media and their result files,
 * assets, ledger rows, shared content) with the defaults the API answers with and overrides
 * per test. Pure: no store lives here, so every tests/msw file may import it without a cycle.
 */

export const API = 'http://localhost/api';

/** SPEC §7's success envelope. */
export const answer = (data: unknown, init?: ResponseInit) => HttpResponse.json({ data }, init);

/** An error as the local server answers it (FastAPI's `{ detail }`). */
export const detail = (status: number, text: string) => HttpResponse.json({ detail: text }, { status });

/** A request with a bearer token (the fakes trust any: the user pool is faked apart). */
export const isSignedIn = (request: Request): boolean => Boolean(request.headers.get('Authorization'));

/** "METHOD path" without the `/api/` prefix, as the fakes record calls: "GET media/m1". */
export const callOf = (request: Request): string => {
  const url = new URL(request.url);
  return `${request.method} ${url.pathname.replace(/^\/api\//, '')}`;
};

/** A signed file link as the local server writes them (expires in 2100). */
export const signedFileUrl = (name: string): string =>
  `http://localhost/api/files/${name}?expires=4102444800&signature=${'ab'.repeat(32)}`;

/** A store's clock: every answer moves it on a second, so `updated_at` never goes backwards. */
export function tick(state: { clock: number }): string {
  state.clock += 1000;
  return new Date(state.clock).toISOString();
}

/** One file of a media job as the API lists it. */
export interface FakeMediaItem {
  type: MediaKind;
  status: string;
  url: string | null;
  thumbnail_url: string | null;
  file_id: string | null;
  duration_seconds?: number | null;
  gif_url?: string | null;
  folder_path?: string | null;
  label?: string | null;
  /** Issue 21 item 7: the seed the picture was made with. */
  seed?: number | null;
}

export interface FakeMediaRecord {
  id: string;
  version: string;
  base_url: string;
  kind: MediaKind;
  tool: string;
  status: string;
  progress: number;
  option: string | null;
  cost: number;
  refunded: boolean;
  error: string | null;
  logo_variant: boolean;
  asset_id: string | null;
  image_urls: string[];
  args: Record<string, unknown>;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
  items: FakeMediaItem[];
  files: never[];
  results?: string[];
  /** Issue 21 item 2: a waiting job its owner holds, and its place in their queue. */
  held?: boolean;
  queue_position?: number | null;
  /** Issue 21 item 7: the seed of a generation job. */
  seed?: number | null;
}

/** A queued job made at `now`; a test or handler overrides what it needs. */
export function mediaRecord(id: string, now: string, overrides: Partial<FakeMediaRecord> = {}): FakeMediaRecord {
  return {
    id,
    version: '3',
    base_url: '',
    kind: 'image',
    tool: 'text-to-image',
    status: 'queue_source',
    progress: 0,
    option: null,
    cost: 0,
    refunded: false,
    error: null,
    logo_variant: false,
    asset_id: null,
    image_urls: [],
    args: {},
    created_at: now,
    updated_at: now,
    finished_at: null,
    items: [],
    files: [],
    ...overrides,
  };
}

/** A finished file at `url`; the other fields say nothing more unless overridden. */
export const finishedItem = (type: MediaKind, url: string, overrides: Partial<FakeMediaItem> = {}): FakeMediaItem => ({
  type,
  status: 'success',
  url,
  thumbnail_url: null,
  file_id: null,
  ...overrides,
});

/** The one file of a job that did not finish well (failed, nsfw): no link. */
export const endedItem = (type: MediaKind, status: string): FakeMediaItem => ({
  type,
  status,
  url: null,
  thumbnail_url: null,
  file_id: null,
});

export interface FakeAssetRecord {
  id: string;
  name: string;
  description: string;
  fields: Record<string, unknown>;
  created_at: string;
  updated_at: string;
}

export const assetRecord = (id: string, now: string, overrides: Partial<FakeAssetRecord> = {}): FakeAssetRecord => ({
  id,
  name: 'My asset',
  description: '',
  fields: {},
  created_at: now,
  updated_at: now,
  ...overrides,
});

/** A ledger row: a debit when the amount is negative, else a grant, unless `kind` says otherwise. */
export const ledgerRow = (
  id: string,
  balanceAfter: number,
  createdAt: string,
  entry: Partial<CreditHistoryEntry> & { amount: number; reason: string },
): CreditHistoryEntry => ({
  id,
  kind: entry.amount < 0 ? 'debit' : 'grant',
  job_id: null,
  payment_id: null,
  balance_after: balanceAfter,
  created_at: createdAt,
  ...entry,
});

/** A public picture shared by @ada, numbered `n` (later numbers are shared later). */
export function publicContent(n: number, overrides: Partial<PublicContent> = {}): PublicContent {
  const id = overrides.id ?? `c${n}`;
  return {
    id,
    title: `Shared result ${n}`,
    description: '',
    kind: 'image',
    tool: 'text-to-image',
    visibility: 'public',
    creation_type: null,
    url: `http://localhost/api/files/${id}.png`,
    thumbnail_url: `http://localhost/api/files/${id}-thumbnail.jpg`,
    width: null,
    height: null,
    duration_seconds: null,
    owner: { id: 'sub-ada', preferred_username: 'ada' },
    shared_at: new Date(Date.UTC(2025, 0, 1) + n * 60_000).toISOString(),
    ...overrides,
  };
}

export interface FakeBatchRecord {
  id: string;
  batch_type: 'ai' | 'parallax';
  title: string;
  image_urls: string[];
  audio_urls: string[];
  concat_video_urls: string[];
  additional_videos: AdditionalVideo[];
  script_board: ScriptBoard | null;
  video_media_ids: string[];
  concat_media_id: string | null;
  args: Record<string, unknown>;
  created_at: string;
  updated_at: string;
}

/** An AI album of two pictures, not written yet. */
export const albumRecord = (id: string, created: string, overrides: Partial<FakeBatchRecord> = {}): FakeBatchRecord => ({
  id,
  batch_type: 'ai',
  title: 'Holiday',
  image_urls: ['http://localhost/api/files/p1.png', 'http://localhost/api/files/p2.png'],
  audio_urls: [],
  concat_video_urls: [],
  additional_videos: [],
  script_board: null,
  video_media_ids: [],
  concat_media_id: null,
  args: {},
  created_at: created,
  updated_at: created,
  ...overrides,
});

export interface FakeOrganisation {
  id: string;
  name: string;
  ownerSub: string;
  balance: number;
  members: { sub: string; addedAt: string; creditsReceived: number }[];
  transfers: CustomerTransfer[];
  createdAt: string;
}

/** An organisation of `ownerSub` with no members, credits or transfers yet. */
export const organisationRecord = (
  id: string,
  createdAt: string,
  overrides: Partial<FakeOrganisation> & { ownerSub: string },
): FakeOrganisation => ({
  id,
  name: 'Acme Studio',
  balance: 0,
  members: [],
  transfers: [],
  createdAt,
  ...overrides,
});

export interface FakeStoryRecord {
  id: string;
  idea: string;
  duration: number;
  aspect_ratio: string;
  style: string;
  image_urls: string[];
  step: StoryStage;
  storyboard: Storyboard;
  concat_media_id: string | null;
  concat_source: string;
  created_at: string;
  updated_at: string;
}

/** A 15 s cinematic 16:9 story of `idea` at the storyboard step, its board as given. */
export const storyRecord = (
  id: string,
  created: string,
  idea: string,
  storyboard: Storyboard,
  overrides: Partial<FakeStoryRecord> = {},
): FakeStoryRecord => ({
  id,
  idea,
  duration: 15,
  aspect_ratio: '16:9',
  style: 'cinematic',
  image_urls: [],
  step: 'storyboard',
  storyboard,
  concat_media_id: null,
  concat_source: '',
  created_at: created,
  updated_at: created,
  ...overrides,
});
