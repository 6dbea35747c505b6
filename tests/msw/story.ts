import { http } from 'msw';
import { DEFAULT_STORY_IMAGE_MODEL, DEFAULT_STORY_VIDEO_MODEL, STORY_TOOLS, type StoryStage } from '@/config/story';
import { DEFAULT_VOICE } from '@/config/voices';
import {
  audioSource,
  elementSource,
  idsNeedingWork,
  sceneImageSource,
  sceneVideoSource,
  storyAudioPrice,
  storyConcatSource,
  storyPartPrice,
  storyPartStates,
  type StatusOf,
} from '@/lib/story';
import { storyQuote } from '@/lib/story-quote';
import { activateTake, placeTake, takeSlot, takesOf, undoTakeOf, type TakeSlot } from '@/lib/story-takes';
import type { StoryAsset, Storyboard } from '@/services/schemas/story';
import { fakeApi } from './handlers';
import { answer, API, detail, endedItem, finishedItem, signedFileUrl, storyRecord, type FakeStoryRecord } from './data';
import { addMedia, fakeMedia, type FakeMediaRecord } from './media';

/**
 * A small stand-in for the story calls (issue 6 contract), enough for the story screens: stories
 * in memory; POST story writes a storyboard from the idea (one scene per sentence, a character
 * and a place); each make call starts one job per part in the fake media store, paid from
 * `fakeApi.credits` (402 when short); every GET story/{id} moves the story's live jobs on one
 * poll (they end after `fakeMedia.pollsToFinish` polls); a part made again keeps its takes, to
 * pick or undo. Tests install it with
 * `server.use(...storyHandlers())` and read what was sent from `fakeStory.requests`.
 */

export type { FakeStoryRecord } from './data';

export interface FakeStoryRequest {
  call: string;
  fields: Record<string, string[]>;
  json: Record<string, unknown> | null;
  idempotencyKey: string | null;
}

interface FakeStoryState {
  stories: Map<string, FakeStoryRecord>;
  requests: FakeStoryRequest[];
  idempotency: Set<string>;
  nextId: number;
}

/** Polls counted per media id. */
const polls = new Map<string, number>();

/** Credits each story holds (issue 21 item 6), while its hold is open: what was set aside and what its parts drew. */
const holds = new Map<string, { id: string; amount: number; drawn: number }>();

export const fakeStory: FakeStoryState = { stories: new Map(), requests: [], idempotency: new Set(), nextId: 1 };

export function resetFakeStory(): void {
  polls.clear();
  holds.clear();
  fakeStory.stories = new Map();
  fakeStory.requests = [];
  fakeStory.idempotency = new Set();
  fakeStory.nextId = 1;
}

const now = (): string => new Date(Date.parse('2025-01-01T12:00:00Z') + fakeStory.nextId * 60_000).toISOString();
const notFound = () => detail(404, 'Failed to find a Story with this id');

/** The storyboard the fake server writes: one scene per sentence of the idea (at most 12), with Mara and the lighthouse. */
export function writtenStoryboard(idea: string, title = ''): Storyboard {
  const sentences = idea
    .split(/(?<=[.!?])\s+/)
    .map((sentence) => sentence.trim())
    .filter(Boolean)
    .slice(0, 12);
  const shots = ['wide', 'medium', 'close-up'] as const;
  return {
    title: title || sentences[0]!.slice(0, 40),
    image_model: DEFAULT_STORY_IMAGE_MODEL,
    video_model: DEFAULT_STORY_VIDEO_MODEL,
    scenes: sentences.map((text, index) => ({
      id: `scene-${index + 1}`,
      text,
      shot: shots[index % shots.length]!,
      duration: 5,
      element_ids: ['el-1', 'el-2'],
      image: null,
      video: null,
    })),
    elements: [
      { id: 'el-1', kind: 'character', name: 'Mara', description: 'a lighthouse keeper', image: null },
      { id: 'el-2', kind: 'place', name: 'The lighthouse', description: '', image: null },
    ],
    audio: { kind: 'speech', text: sentences.join(' '), voice: DEFAULT_VOICE, track: null },
  };
}

export function addStory(overrides: Partial<FakeStoryRecord> = {}): FakeStoryRecord {
  const created = now();
  const idea = overrides.idea ?? 'Mara keeps the lighthouse. A storm comes. She lights the lamp.';
  const story = storyRecord(`story-${fakeStory.nextId++}`, created, idea, writtenStoryboard(idea), overrides);
  fakeStory.stories.set(story.id, story);
  return story;
}

/**
 * Makes a story's parts as if their jobs had run and succeeded, in dependency order: the element
 * pictures, then (from 'scenes') the scene pictures, then (from 'videos') the videos and the sound.
 */
export function madeParts(story: FakeStoryRecord, upTo: 'elements' | 'scenes' | 'videos'): void {
  const board = story.storyboard;
  const done = (kind: 'image' | 'video' | 'audio', tool: string) => {
    const media = addMedia({ kind, tool, args: {} });
    finishStoryJob(media);
    return media.id;
  };
  for (const element of board.elements) {
    element.image = { media_id: done('image', STORY_TOOLS.element), source: elementSource(look(story), board, element) };
  }
  if (upTo === 'elements') return;
  for (const scene of board.scenes) {
    scene.image = { media_id: done('image', STORY_TOOLS.scene), source: sceneImageSource(look(story), board, scene) };
  }
  if (upTo === 'scenes') return;
  for (const scene of board.scenes) {
    scene.video = { media_id: done('video', STORY_TOOLS.video), source: sceneVideoSource(board, scene) };
  }
  if (board.audio.kind !== 'none') board.audio.track = { media_id: done('audio', STORY_TOOLS.audio), source: audioSource(board.audio) };
}

const LIVE = (status: string): boolean => status.startsWith('queue') || status.startsWith('processing');
const statusClass: StatusOf = (mediaId) => {
  const media = fakeMedia.media.get(mediaId);
  if (!media) return undefined;
  if (LIVE(media.status)) return 'processing';
  if (media.status.startsWith('success')) return 'success';
  return media.status as 'failed' | 'nsfw' | 'cancelled';
};

/** Ends a story job as the local server would: a picture, a video or a sound file. */
export function finishStoryJob(media: FakeMediaRecord, outcome: 'success' | 'failed' = 'success'): void {
  media.progress = 100;
  media.finished_at = media.updated_at;
  if (outcome === 'failed') {
    media.status = 'failed';
    media.error = 'The render engine failed.';
    media.items = [endedItem(media.kind, 'failed')];
    if (!media.refunded) {
      media.refunded = true;
      fakeApi.credits += media.cost;
    }
    return;
  }
  const extension = media.kind === 'image' ? 'png' : media.kind === 'video' ? 'mp4' : 'wav';
  media.status = media.kind === 'image' ? 'success_image' : 'success';
  media.items = [
    finishedItem(media.kind, signedFileUrl(`${media.id}-result.${extension}`), {
      thumbnail_url: media.kind === 'audio' ? null : signedFileUrl(`${media.id}-thumbnail.jpg`),
      file_id: `${media.id}-result`,
      duration_seconds: media.kind === 'image' ? null : 5,
    }),
  ];
}

/** Every media id the story names. */
function mediaIdsOf(story: FakeStoryRecord): string[] {
  const board = story.storyboard;
  return [
    ...board.elements.flatMap((element) => takesOf({ active: element.image, takes: element.image_takes }).map((take) => take.media_id)),
    ...board.scenes.flatMap((scene) =>
      [takesOf({ active: scene.image, takes: scene.image_takes }), takesOf({ active: scene.video, takes: scene.video_takes })].flat().map((take) => take.media_id),
    ),
    ...(board.audio.track ? [board.audio.track.media_id] : []),
    ...(story.concat_media_id ? [story.concat_media_id] : []),
  ];
}

/** One poll of the story's live jobs: each moves on, and ends after `pollsToFinish` polls. */
function advance(story: FakeStoryRecord): void {
  for (const id of mediaIdsOf(story)) {
    const media = fakeMedia.media.get(id);
    if (!media || !LIVE(media.status)) continue;
    const count = (polls.get(id) ?? 0) + 1;
    polls.set(id, count);
    if (count >= fakeMedia.pollsToFinish) finishStoryJob(media, fakeMedia.outcome === 'success' ? 'success' : 'failed');
    else {
      media.status = 'processing_source';
      media.progress = Math.round((count / fakeMedia.pollsToFinish) * 100);
    }
  }
}

function answerOf(story: FakeStoryRecord) {
  const media: Record<string, FakeMediaRecord> = {};
  for (const id of mediaIdsOf(story)) {
    const record = fakeMedia.media.get(id);
    if (record && id !== story.concat_media_id) media[id] = record;
  }
  return {
    id: story.id,
    idea: story.idea,
    duration: story.duration,
    aspect_ratio: story.aspect_ratio,
    style: story.style,
    image_urls: story.image_urls,
    step: story.step,
    storyboard: story.storyboard,
    media,
    concat: story.concat_media_id ? (fakeMedia.media.get(story.concat_media_id) ?? null) : null,
    concat_source: story.concat_source,
    args: {},
    created_at: story.created_at,
    updated_at: story.updated_at,
  };
}

const ok = (story: FakeStoryRecord) => answer(answerOf(story));

async function readRequest(request: Request, call: string): Promise<FakeStoryRequest> {
  const fields: Record<string, string[]> = {};
  let json: Record<string, unknown> | null = null;
  if (request.method !== 'GET' && request.method !== 'DELETE') {
    if ((request.headers.get('Content-Type') ?? '').includes('application/json')) {
      json = (await request.json()) as Record<string, unknown>;
    } else {
      const form = await request.formData();
      for (const key of new Set(form.keys())) {
        fields[key] = form.getAll(key).map((value) => (typeof value === 'string' ? value : value.name));
      }
    }
  }
  const entry = { call, fields, json, idempotencyKey: request.headers.get('Idempotency-Key') };
  fakeStory.requests.push(entry);
  return entry;
}

const look = (story: FakeStoryRecord) => ({ style: story.style, aspect_ratio: story.aspect_ratio });

/** A part's price paid as the server pays it: from the story's hold first, the rest from the balance (402 when short). */
function pay(story: FakeStoryRecord, total: number): Response | null {
  const hold = holds.get(story.id);
  const fromHold = hold ? Math.min(hold.amount - hold.drawn, total) : 0;
  if (total - fromHold > fakeApi.credits) return detail(402, `Not enough credits: this costs ${total} credits and you have ${fakeApi.credits}.`);
  if (hold) hold.drawn += fromHold;
  fakeApi.credits -= total - fromHold;
  return null;
}

/** POST story/{id}/quote's answer (DELETE hold's with the hold just closed). */
function quoteOf(story: FakeStoryRecord, closed: { id: string; amount: number; drawn: number } | null = null) {
  const quote = storyQuote(look(story), story.storyboard, statusClass);
  const hold = closed ?? holds.get(story.id) ?? null;
  return {
    story_id: story.id,
    ...quote,
    cost: quote.total,
    hold: hold && { ...hold, remaining: hold.amount - hold.drawn, status: closed ? 'closed' : 'open', close_reason: closed ? 'released' : null },
    balance: fakeApi.credits,
  };
}
type MakePart = 'elements' | 'scenes' | 'videos';

/** Starts one job per part asked for (or every one needing work), paid in one go. */
function make(story: FakeStoryRecord, part: MakePart, board: Storyboard, askedIds: string[] | undefined): Response | null {
  story.storyboard = board;
  const states = storyPartStates(look(story), board, statusClass);
  const partStates = part === 'elements' ? states.elements : part === 'scenes' ? states.sceneImages : states.sceneVideos;
  const ids = askedIds && askedIds.length > 0 ? askedIds : idsNeedingWork(partStates);
  if (ids.length === 0) return detail(400, 'Nothing to make: every part is made and up to date.');
  const each = storyPartPrice(board, part);
  const total = each * ids.length;
  const refusal = pay(story, total);
  if (refusal) return refusal;
  let placed = board;
  for (const id of ids) {
    if (part === 'elements') {
      const element = board.elements.find((candidate) => candidate.id === id);
      if (!element) continue;
      const media = addMedia({ kind: 'image', tool: STORY_TOOLS.element, cost: each, option: board.image_model, args: { story_part: 'elements', element_id: id } });
      placed = placeTake(placed, part, id, { media_id: media.id, source: elementSource(look(story), board, element) });
    } else {
      const scene = board.scenes.find((candidate) => candidate.id === id);
      if (!scene) continue;
      if (part === 'scenes') {
        const media = addMedia({ kind: 'image', tool: STORY_TOOLS.scene, cost: each, option: board.image_model, args: { story_part: 'scenes', scene_id: id } });
        placed = placeTake(placed, part, id, { media_id: media.id, source: sceneImageSource(look(story), board, scene) });
      } else {
        const media = addMedia({ kind: 'video', tool: STORY_TOOLS.video, cost: each, option: board.video_model, args: { story_part: 'videos', scene_id: id } });
        placed = placeTake(placed, part, id, { media_id: media.id, source: sceneVideoSource(board, scene) });
      }
    }
  }
  story.storyboard = placed;
  return null;
}

const boardOf = (fields: Record<string, string[]>): Storyboard | null => {
  const text = fields.storyboard?.[0];
  return text ? (JSON.parse(text) as Storyboard) : null;
};

/** A take made active on the story (the sent draft first), or why not. */
function chooseTake(
  story: FakeStoryRecord | undefined,
  part: MakePart,
  partId: string,
  json: Record<string, unknown> | null,
  choose: (slot: TakeSlot) => StoryAsset | null,
): Response {
  if (!story) return notFound();
  const board = (json?.storyboard as Storyboard | undefined) ?? story.storyboard;
  const slot = takeSlot(board, part, partId);
  const take = slot ? choose(slot) : null;
  if (!take) return detail(409, 'Nothing to undo: this picture was not made again since it was chosen.');
  story.storyboard = activateTake(board, part, partId, take);
  return ok(story);
}

/** The story calls, to install with `server.use(...storyHandlers())`. */
export function storyHandlers() {
  const find = (params: Record<string, unknown>) => fakeStory.stories.get(String(params.id));
  return [
    http.get(`${API}/story`, async ({ request }) => {
      await readRequest(request, 'GET story');
      const items = [...fakeStory.stories.values()]
        .sort((a, b) => b.created_at.localeCompare(a.created_at))
        .map((story) => ({
          id: story.id,
          title: story.storyboard.title,
          idea: story.idea,
          step: story.step,
          scene_count: story.storyboard.scenes.length,
          cover_url: null,
          created_at: story.created_at,
          updated_at: story.updated_at,
        }));
      return answer({ items });
    }),
    http.post(`${API}/story`, async ({ request }) => {
      const { fields } = await readRequest(request, 'POST story');
      const idea = fields.idea?.[0] ?? '';
      if (idea.trim().length < 10) return detail(400, 'Write an idea of 10 to 2000 characters.');
      const story = addStory({
        idea,
        duration: Number(fields.duration?.[0] ?? 30),
        aspect_ratio: fields.aspect_ratio?.[0] ?? '16:9',
        style: fields.style?.[0] ?? 'cinematic',
        image_urls: fields.image_urls ?? [],
        storyboard: writtenStoryboard(idea, fields.title?.[0]),
      });
      return ok(story);
    }),
    http.get(`${API}/story/:id`, async ({ request, params }) => {
      await readRequest(request, `GET story/${String(params.id)}`);
      const story = find(params);
      if (!story) return notFound();
      advance(story);
      return ok(story);
    }),
    http.put(`${API}/story/:id`, async ({ request, params }) => {
      const { json } = await readRequest(request, `PUT story/${String(params.id)}`);
      const story = find(params);
      if (!story) return notFound();
      const body = json ?? {};
      if (typeof body.idea === 'string') story.idea = body.idea;
      if (typeof body.duration === 'number') story.duration = body.duration;
      if (typeof body.aspect_ratio === 'string') story.aspect_ratio = body.aspect_ratio;
      if (typeof body.style === 'string') story.style = body.style;
      if (body.storyboard) story.storyboard = body.storyboard as Storyboard;
      if (typeof body.step === 'string') story.step = body.step as StoryStage;
      if (body.rewrite === true) story.storyboard = writtenStoryboard(story.idea, story.storyboard.title);
      return ok(story);
    }),
    ...(['elements', 'scenes', 'videos'] as const).map((part) =>
      http.post(`${API}/story/:id/${part}`, async ({ request, params }) => {
        const { fields, idempotencyKey } = await readRequest(request, `POST story/${String(params.id)}/${part}`);
        const story = find(params);
        if (!story) return notFound();
        if (idempotencyKey && fakeStory.idempotency.has(idempotencyKey)) return ok(story);
        const refusal = make(story, part, boardOf(fields) ?? story.storyboard, fields.ids);
        if (refusal) return refusal;
        if (idempotencyKey) fakeStory.idempotency.add(idempotencyKey);
        return ok(story);
      }),
    ),
    http.post(`${API}/story/:id/audio`, async ({ request, params }) => {
      const { fields, idempotencyKey } = await readRequest(request, `POST story/${String(params.id)}/audio`);
      const story = find(params);
      if (!story) return notFound();
      if (idempotencyKey && fakeStory.idempotency.has(idempotencyKey)) return ok(story);
      const board = boardOf(fields) ?? story.storyboard;
      story.storyboard = board;
      if (board.audio.kind === 'none') return detail(400, 'The film has no sound to make.');
      const price = storyAudioPrice(board.audio.kind);
      const refusal = pay(story, price);
      if (refusal) return refusal;
      const media = addMedia({ kind: 'audio', tool: STORY_TOOLS.audio, cost: price, args: { story_part: 'audio' } });
      board.audio.track = { media_id: media.id, source: audioSource(board.audio) };
      if (idempotencyKey) fakeStory.idempotency.add(idempotencyKey);
      return ok(story);
    }),
    http.post(`${API}/story/:id/concat`, async ({ request, params }) => {
      const { fields } = await readRequest(request, `POST story/${String(params.id)}/concat`);
      const story = find(params);
      if (!story) return notFound();
      const videos = fields.concat_video_urls ?? [];
      if (videos.length === 0) return detail(400, 'Send the videos to join (concat_video_urls).');
      const media = addMedia({ kind: 'video', tool: STORY_TOOLS.concat, args: { story_part: 'concat' } });
      story.concat_media_id = media.id;
      const board = story.storyboard;
      story.concat_source = storyConcatSource(
        board.scenes.map((scene) => scene.video?.media_id ?? ''),
        board.audio.kind === 'none' ? null : (board.audio.track?.media_id ?? null),
      );
      return ok(story);
    }),
    http.put(`${API}/story/:id/cancel`, async ({ request, params }) => {
      const { json } = await readRequest(request, `PUT story/${String(params.id)}/cancel`);
      const story = find(params);
      if (!story) return notFound();
      const part = String(json?.part ?? '');
      for (const id of mediaIdsOf(story)) {
        const media = fakeMedia.media.get(id);
        if (!media || !LIVE(media.status) || media.args.story_part !== part) continue;
        media.status = 'cancelled';
        if (!media.refunded) {
          media.refunded = true;
          fakeApi.credits += media.cost;
        }
      }
      return ok(story);
    }),
    // Takes (issue 21): one made active, or the last regeneration undone; the draft sent is saved with it.
    ...(['elements', 'scenes', 'videos'] as const).flatMap((part) => [
      http.post(`${API}/story/:id/${part}/:partId/takes/:mediaId/select`, async ({ request, params }) => {
        const { json } = await readRequest(request, `POST story/${String(params.id)}/${part}/${String(params.partId)}/takes/${String(params.mediaId)}/select`);
        return chooseTake(find(params), part, String(params.partId), json, (slot) => takesOf(slot).find((take) => take.media_id === String(params.mediaId)) ?? null);
      }),
      http.post(`${API}/story/:id/${part}/:partId/undo`, async ({ request, params }) => {
        const { json } = await readRequest(request, `POST story/${String(params.id)}/${part}/${String(params.partId)}/undo`);
        return chooseTake(find(params), part, String(params.partId), json, undoTakeOf);
      }),
    ]),
    http.post(`${API}/story/:id/quote`, async ({ request, params }) => {
      await readRequest(request, `POST story/${String(params.id)}/quote`);
      const story = find(params);
      return story ? answer(quoteOf(story)) : notFound();
    }),
    http.post(`${API}/story/:id/hold`, async ({ request, params }) => {
      const { idempotencyKey } = await readRequest(request, `POST story/${String(params.id)}/hold`);
      const story = find(params);
      if (!story) return notFound();
      const { total } = storyQuote(look(story), story.storyboard, statusClass);
      const current = holds.get(story.id);
      const more = total - (current ? current.amount - current.drawn : 0);
      if (more > fakeApi.credits) return detail(402, `Not enough credits: this costs ${total} credits and you have ${fakeApi.credits}.`);
      fakeApi.credits -= more;
      holds.set(story.id, current ? { ...current, amount: current.drawn + total } : { id: `hold-${idempotencyKey ?? 'x'}`, amount: total, drawn: 0 });
      return answer(quoteOf(story));
    }),
    http.delete(`${API}/story/:id/hold`, async ({ request, params }) => {
      await readRequest(request, `DELETE story/${String(params.id)}/hold`);
      const story = find(params);
      const hold = story && holds.get(story.id);
      if (!story || !hold) return story ? detail(404, 'This story holds no credits.') : notFound();
      holds.delete(story.id);
      fakeApi.credits += hold.amount - hold.drawn;
      return answer(quoteOf(story, hold));
    }),
    http.delete(`${API}/story/:id`, async ({ request, params }) => {
      await readRequest(request, `DELETE story/${String(params.id)}`);
      const id = String(params.id);
      if (!fakeStory.stories.delete(id)) return notFound();
      // As on the server, a deleted story's hold closes and what it kept returns to the balance.
      const hold = holds.get(id);
      if (hold) fakeApi.credits += hold.amount - hold.drawn;
      holds.delete(id);
      return answer({ id, deleted: true });
    }),
  ];
}
