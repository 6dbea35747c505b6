import { http } from 'msw';
import { CAMERA_MOTIONS } from '@/config/camera-motions';
import { MOTION_MODELS } from '@/config/motion-models';
import { PARALLAX_CAMERA_PATH_OPTIONS } from '@/config/parallax-paths';
import { PARALLAX_VIDEO_CREDITS } from '@/config/video-creation';
import { MESSAGES } from '@/config/messages';
import { albumQuote, type ClipVideo } from '@/lib/album-quote';
import { classifyStatus } from '@/lib/job-status';
import type { AdditionalVideo, ScriptBoard, ScriptBoardClip } from '@/services/schemas/batch';
import { albumRecord, answer, API, detail, type FakeBatchRecord } from './data';
import { fakeApi } from './handlers';
import { addMedia, fakeMedia, type FakeMediaRecord } from './media';

/**
 * A small stand-in for the batch calls of SPEC §7 (issue 5), enough for the album screens: albums
 * in memory; a written board (one clip per picture); generating makes one queued video job per
 * clip in the fake media store of tests/msw/media.ts (whose processing-status handler then runs
 * and finishes it), paid from `fakeApi.credits` (402 when short); PUT edit with concat makes the
 * joining job the same way; delete. Tests install it with `server.use(...batchHandlers())` and
 * read what was sent from `fakeBatch`.
 */

export type { FakeBatchRecord } from './data';

export interface FakeBatchRequest {
  call: string;
  fields: Record<string, string[]>;
  idempotencyKey: string | null;
}

interface FakeBatchState {
  albums: Map<string, FakeBatchRecord>;
  /** Every batch request in order, with its multipart fields (each key's values). */
  requests: FakeBatchRequest[];
  /** Idempotency-Key → album answer already given (a replay changes nothing). */
  idempotency: Set<string>;
  /** The next DELETE answers this status instead of deleting (e.g. 500). */
  failDelete: number | null;
  nextId: number;
  /** Credits each album holds (issue 21 item 6), while its hold is open: what was set aside and what its clips drew. */
  holds: Map<string, { id: string; amount: number; drawn: number }>;
}

export const fakeBatch: FakeBatchState = {
  albums: new Map(),
  requests: [],
  idempotency: new Set(),
  failDelete: null,
  nextId: 1,
  holds: new Map(),
};

export function resetFakeBatch(): void {
  fakeBatch.albums = new Map();
  fakeBatch.requests = [];
  fakeBatch.idempotency = new Set();
  fakeBatch.failDelete = null;
  fakeBatch.nextId = 1;
  fakeBatch.holds = new Map();
}

const notFound = () => detail(404, MESSAGES.batchNotFound.message);

const now = (): string => new Date(Date.parse('2025-01-01T12:00:00Z') + fakeBatch.nextId * 60_000).toISOString();

export function addAlbum(overrides: Partial<FakeBatchRecord> = {}): FakeBatchRecord {
  const created = now();
  const album = albumRecord(`album-${fakeBatch.nextId++}`, created, overrides);
  fakeBatch.albums.set(album.id, album);
  return album;
}

/** The board the fake server writes: one clip per picture, camera motions or paths in turn. */
export function writtenBoard(album: Pick<FakeBatchRecord, 'batch_type' | 'image_urls'>): ScriptBoard {
  const motions = CAMERA_MOTIONS.filter((motion) => motion.value !== 'Auto' && motion.value !== 'Static');
  return {
    clips: album.image_urls.map((url, index): ScriptBoardClip => {
      const common = { id: `clip-${index + 1}`, image_url: url, motion_length: 5, motion_amount: 5 };
      return album.batch_type === 'parallax'
        ? {
            ...common,
            prompt: '',
            motion_type: 'Parallax',
            camera_path: PARALLAX_CAMERA_PATH_OPTIONS[index % PARALLAX_CAMERA_PATH_OPTIONS.length]!.value,
            model: '',
          }
        : { ...common, prompt: `Picture ${index + 1} described`, motion_type: motions[index % motions.length]!.value, camera_path: null, model: 'Auto' };
    }),
  };
}

const mediaOf = (id: string | null): FakeMediaRecord | null => (id ? (fakeMedia.media.get(id) ?? null) : null);

const answerOf = (album: FakeBatchRecord) => ({
  id: album.id,
  batch_type: album.batch_type,
  title: album.title,
  image_urls: album.image_urls,
  audio_urls: album.audio_urls,
  concat_video_urls: album.concat_video_urls,
  additional_videos: album.additional_videos,
  script_board: album.script_board,
  videos: album.video_media_ids.map(mediaOf).filter((media): media is FakeMediaRecord => media !== null),
  concat: mediaOf(album.concat_media_id),
  args: album.args,
  created_at: album.created_at,
  updated_at: album.updated_at,
});

const ok = (album: FakeBatchRecord) => answer(answerOf(album));

async function readRequest(request: Request, call: string): Promise<FakeBatchRequest> {
  const fields: Record<string, string[]> = {};
  if (request.method !== 'GET' && request.method !== 'DELETE') {
    const form = await request.formData();
    for (const key of new Set(form.keys())) {
      fields[key] = form.getAll(key).map((value) => (typeof value === 'string' ? value : value.name));
    }
  }
  const entry = { call, fields, idempotencyKey: request.headers.get('Idempotency-Key') };
  fakeBatch.requests.push(entry);
  return entry;
}

const list = (fields: Record<string, string[]>, key: string): string[] | undefined => {
  const values = fields[key];
  if (values === undefined) return undefined;
  return values.length === 1 && values[0] === '' ? [] : values;
};

const clipCost = (type: FakeBatchRecord['batch_type'], clip: ScriptBoardClip): number =>
  type === 'parallax'
    ? PARALLAX_VIDEO_CREDITS
    : (MOTION_MODELS.find((model) => model.value === (clip.model || 'Auto'))?.required_credits ?? 0);

/** POST batch/{id}/quote's answer, as the server prices it (albumQuote); DELETE hold's with the hold just closed. */
function quoteOf(album: FakeBatchRecord, closed: { id: string; amount: number; drawn: number } | null = null) {
  const videos = new Map<string, ClipVideo>();
  for (const media of album.video_media_ids.map(mediaOf)) {
    const clipId = media?.args.batch_clip_id;
    if (!media || typeof clipId !== 'string') continue;
    const state = classifyStatus(media.status);
    videos.set(clipId, { option: media.option ?? '', state: state === 'success' ? 'made' : state === 'processing' ? 'running' : 'ended' });
  }
  const concat = mediaOf(album.concat_media_id);
  const joined = concat !== null && ['success', 'processing'].includes(classifyStatus(concat.status));
  const quote = albumQuote(album.batch_type, album.script_board?.clips ?? [], (clipId) => videos.get(clipId), joined);
  const hold = closed ?? fakeBatch.holds.get(album.id) ?? null;
  return {
    batch_id: album.id,
    ...quote,
    cost: quote.total,
    hold: hold && { ...hold, remaining: hold.amount - hold.drawn, status: closed ? 'closed' : 'open', close_reason: closed ? 'released' : null },
    balance: fakeApi.credits,
  };
}

/** A JSON call (quote, hold): recorded without a form to read. */
function recordCall(request: Request, call: string): FakeBatchRequest {
  const entry = { call, fields: {}, idempotencyKey: request.headers.get('Idempotency-Key') };
  fakeBatch.requests.push(entry);
  return entry;
}

/** The batch calls, to install with `server.use(...batchHandlers())`. */
export function batchHandlers() {
  return [
    http.get(`${API}/batch`, async ({ request }) => {
      await readRequest(request, 'GET batch');
      const items = [...fakeBatch.albums.values()].sort((a, b) => b.created_at.localeCompare(a.created_at)).map(answerOf);
      return answer({ items });
    }),
    http.post(`${API}/batch`, async ({ request }) => {
      const { fields } = await readRequest(request, 'POST batch');
      const images = list(fields, 'image_urls') ?? [];
      if (images.length < 1 || images.length > 12) return detail(400, 'Add 1 to 12 pictures (image_urls).');
      const type = fields.batch_type?.[0];
      if (type !== 'ai' && type !== 'parallax') return detail(400, 'batch_type must be ai or parallax.');
      return ok(addAlbum({ batch_type: type, title: fields.title?.[0] ?? '', image_urls: images }));
    }),
    http.get(`${API}/batch/:id`, async ({ request, params }) => {
      await readRequest(request, `GET batch/${String(params.id)}`);
      const album = fakeBatch.albums.get(String(params.id));
      return album ? ok(album) : notFound();
    }),
    http.post(`${API}/batch/:id/script-board`, async ({ request, params }) => {
      await readRequest(request, `POST batch/${String(params.id)}/script-board`);
      const album = fakeBatch.albums.get(String(params.id));
      if (!album) return notFound();
      album.script_board = writtenBoard(album);
      return ok(album);
    }),
    http.post(`${API}/batch/:id/videos`, async ({ request, params }) => {
      const { fields, idempotencyKey } = await readRequest(request, `POST batch/${String(params.id)}/videos`);
      const album = fakeBatch.albums.get(String(params.id));
      if (!album) return notFound();
      if (idempotencyKey && fakeBatch.idempotency.has(idempotencyKey)) return ok(album);
      const board = JSON.parse(fields.script_board?.[0] ?? '{"clips":[]}') as ScriptBoard;
      if (board.clips.length === 0) return detail(400, 'The script board has no clips.');
      const total = board.clips.reduce((sum, clip) => sum + clipCost(album.batch_type, clip), 0);
      // What the album holds pays first; the rest comes from the balance (402 when short).
      const hold = fakeBatch.holds.get(album.id);
      const fromHold = hold ? Math.min(hold.amount - hold.drawn, total) : 0;
      if (total - fromHold > fakeApi.credits) {
        return detail(402, `Not enough credits: this costs ${total} credits and you have ${fakeApi.credits}.`);
      }
      if (hold) hold.drawn += fromHold;
      fakeApi.credits -= total - fromHold;
      album.script_board = board;
      album.video_media_ids = board.clips.map(
        (clip) =>
          addMedia({
            kind: 'video',
            tool: 'batch-clip',
            cost: clipCost(album.batch_type, clip),
            option: album.batch_type === 'parallax' ? 'Parallax' : clip.model || 'Auto',
            args: {
              creation_type: album.batch_type === 'parallax' ? 'parallax-motion' : 'ai-motion',
              batch_clip_id: clip.id,
              pose_preset: [{ motion_type: clip.motion_type, camera_path: clip.camera_path, quantity: 1 }],
            },
          }).id,
      );
      if (idempotencyKey) fakeBatch.idempotency.add(idempotencyKey);
      return ok(album);
    }),
    http.put(`${API}/batch/:id/edit`, async ({ request, params }) => {
      const { fields } = await readRequest(request, `PUT batch/${String(params.id)}/edit`);
      const album = fakeBatch.albums.get(String(params.id));
      if (!album) return notFound();
      album.audio_urls = list(fields, 'audio_urls') ?? album.audio_urls;
      album.concat_video_urls = list(fields, 'concat_video_urls') ?? album.concat_video_urls;
      const additional = fields.additional_videos?.[0];
      if (additional !== undefined) album.additional_videos = additional === '' ? [] : (JSON.parse(additional) as AdditionalVideo[]);
      const board = fields.script_board?.[0];
      if (board) album.script_board = JSON.parse(board) as ScriptBoard;
      if (fields.concat?.[0] === 'true') {
        if (album.concat_video_urls.length + album.additional_videos.length === 0) return detail(400, 'There is nothing to join yet.');
        album.concat_media_id = addMedia({ kind: 'video', tool: 'batch-concat', args: { concat: true } }).id;
        // Joined: the album has ended, and what its hold still keeps returns to the balance.
        const hold = fakeBatch.holds.get(album.id);
        if (hold) fakeApi.credits += hold.amount - hold.drawn;
        fakeBatch.holds.delete(album.id);
      }
      return ok(album);
    }),
    http.post(`${API}/batch/:id/quote`, ({ request, params }) => {
      recordCall(request, `POST batch/${String(params.id)}/quote`);
      const album = fakeBatch.albums.get(String(params.id));
      return album ? answer(quoteOf(album)) : notFound();
    }),
    http.post(`${API}/batch/:id/hold`, ({ request, params }) => {
      const { idempotencyKey } = recordCall(request, `POST batch/${String(params.id)}/hold`);
      const album = fakeBatch.albums.get(String(params.id));
      if (!album) return notFound();
      const { total } = quoteOf(album);
      if (total === 0) return detail(400, 'Nothing to hold: every clip of this album is made and joining is free.');
      const current = fakeBatch.holds.get(album.id);
      const more = total - (current ? current.amount - current.drawn : 0);
      if (more > fakeApi.credits) return detail(402, `Not enough credits: this costs ${total} credits and you have ${fakeApi.credits + total - more}.`);
      fakeApi.credits -= more;
      fakeBatch.holds.set(album.id, current ? { ...current, amount: current.drawn + total } : { id: `hold-${idempotencyKey ?? 'x'}`, amount: total, drawn: 0 });
      return answer(quoteOf(album));
    }),
    http.delete(`${API}/batch/:id/hold`, ({ request, params }) => {
      recordCall(request, `DELETE batch/${String(params.id)}/hold`);
      const album = fakeBatch.albums.get(String(params.id));
      const hold = album && fakeBatch.holds.get(album.id);
      if (!album || !hold) return album ? detail(404, 'This album holds no credits.') : notFound();
      fakeBatch.holds.delete(album.id);
      fakeApi.credits += hold.amount - hold.drawn;
      return answer(quoteOf(album, hold));
    }),
    http.delete(`${API}/batch/:id`, async ({ request, params }) => {
      await readRequest(request, `DELETE batch/${String(params.id)}`);
      if (fakeBatch.failDelete !== null) return detail(fakeBatch.failDelete, 'The server is busy.');
      const id = String(params.id);
      if (!fakeBatch.albums.delete(id)) return notFound();
      const hold = fakeBatch.holds.get(id);
      if (hold) fakeApi.credits += hold.amount - hold.drawn;
      fakeBatch.holds.delete(id);
      return answer({ id, deleted: true });
    }),
  ];
}
