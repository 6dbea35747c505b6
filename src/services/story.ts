import { apiDelete, apiGet, apiPostJson, apiPostMultipart, apiPutJson } from '@/services/http';
import type { CallOptions } from '@/services/media';
import { storyDeletedSchema, storyListSchema, storySchema } from '@/services/schemas/story';
import type { Story, Storyboard, StorySummary } from '@/services/schemas/story';
import type { StoryStage } from '@/config/story';
import type { StoryPart } from '@/config/story';

/**
 * SPEC §7 story calls, and Kinora's additions to them (GET story, GET/PUT/DELETE story/{id},
 * story/{id}/audio, story/{id}/cancel, a part's takes). Every answer is checked against
 * `storySchema`; bodies are multipart (arrays as repeated keys, the storyboard as a JSON string, see
 * http.ts), but for the JSON ones said so.
 */

export type { Story, Storyboard, StorySummary } from '@/services/schemas/story';
export type { StoryStage } from '@/config/story';

export interface CreateStoryFields {
  idea: string;
  /** The film's length in seconds (STORY_DURATIONS). */
  duration: number;
  aspect_ratio: string;
  style: string;
  title?: string;
  /** Optional reference pictures (the caller's uploads), at most STORY_REFERENCE_PICTURES_MAX. */
  image_urls?: readonly string[];
  image_model?: string;
  video_model?: string;
}

/** PUT story/{id} (Kinora's): saves the person's edits; absent fields are kept. */
export interface SaveStoryFields {
  storyboard?: Storyboard;
  step?: StoryStage;
  idea?: string;
  duration?: number;
  aspect_ratio?: string;
  style?: string;
  /** Write the storyboard again from the idea (its scenes and elements are replaced). */
  rewrite?: boolean;
  /** The revision (Story.revision) the storyboard sent was edited from: refused (412) when the story's board changed since. */
  revision?: string;
}

export interface PaidCallOptions extends CallOptions {
  /** One per click; every retry of it sends the same key. */
  idempotencyKey: string;
  /** The revision the storyboard sent was edited from (refused with 412 when the board changed since); '' = not checked. */
  revision?: string;
}

const storyPath = (id: string): string => `story/${encodeURIComponent(id)}`;

/** GET story: the caller's stories, newest first. */
export const listStories = async (options: CallOptions = {}): Promise<StorySummary[]> =>
  (await apiGet('story', storyListSchema, { signal: options.signal })).items;

/** POST story, multipart image_urls[] + fields: a new story whose storyboard the server writes from the idea. Free. */
export const createStory = (fields: CreateStoryFields, options: CallOptions = {}): Promise<Story> =>
  apiPostMultipart(
    'story',
    { ...fields, duration: String(fields.duration), image_urls: fields.image_urls && fields.image_urls.length > 0 ? fields.image_urls : undefined },
    storySchema,
    { signal: options.signal },
  );

/** GET story/{id} (Kinora's): the story with its storyboard and every job it names. */
export const getStory = (id: string, options: CallOptions = {}): Promise<Story> => apiGet(storyPath(id), storySchema, { signal: options.signal });

/** PUT story/{id} (Kinora's), JSON: the person's edits and the step they are on. */
export const saveStory = (id: string, fields: SaveStoryFields, options: CallOptions = {}): Promise<Story> =>
  apiPutJson(storyPath(id), fields, storySchema, { signal: options.signal });

/**
 * POST story/{id}/elements | scenes | videos, multipart storyboard (JSON) + `ids` (repeated: the
 * elements or scenes to make; absent = every one missing, failed or stale). One job per part, paid
 * in one go (402 when short, nothing made); carries the Idempotency-Key.
 */
export const generateStoryPart = (
  id: string,
  part: 'elements' | 'scenes' | 'videos',
  storyboard: Storyboard,
  ids: readonly string[] | undefined,
  options: PaidCallOptions,
): Promise<Story> =>
  apiPostMultipart(`${storyPath(id)}/${part}`, { storyboard, ids: ids && ids.length > 0 ? ids : undefined, revision: options.revision || undefined }, storySchema, {
    idempotencyKey: options.idempotencyKey,
    signal: options.signal,
  });

/** POST story/{id}/audio (Kinora's), multipart storyboard (JSON): makes the scriptboard's sound as the storyboard describes it. Paid. */
export const generateStoryAudio = (id: string, storyboard: Storyboard, options: PaidCallOptions): Promise<Story> =>
  apiPostMultipart(`${storyPath(id)}/audio`, { storyboard, revision: options.revision || undefined }, storySchema, {
    idempotencyKey: options.idempotencyKey,
    signal: options.signal,
  });

/** POST story/{id}/concat, multipart concat_video_urls[] + audio_urls[]: the free job joining the videos into one film. */
export const concatStory = (id: string, videoUrls: readonly string[], audioUrls: readonly string[], options: CallOptions = {}): Promise<Story> =>
  apiPostMultipart(
    `${storyPath(id)}/concat`,
    { concat_video_urls: videoUrls, audio_urls: audioUrls.length > 0 ? audioUrls : undefined },
    storySchema,
    { signal: options.signal },
  );

/** PUT story/{id}/cancel (Kinora's), JSON {part}: cancels that part's running jobs; each is refunded. */
export const cancelStoryPart = (id: string, part: StoryPart, options: CallOptions = {}): Promise<Story> =>
  apiPutJson(`${storyPath(id)}/cancel`, { part }, storySchema, { signal: options.signal });

/** DELETE story/{id} (Kinora's): the story and its jobs (running ones cancelled and refunded). */
export const deleteStory = (id: string, options: CallOptions = {}): Promise<{ id: string; deleted: true }> =>
  apiDelete(storyPath(id), storyDeletedSchema, { signal: options.signal });

/** What choosing a take sends: the draft (saved first, checked against its revision), when there is one. */
export interface TakeCallFields {
  storyboard?: Storyboard;
  revision?: string;
}

const takePath = (id: string, part: 'elements' | 'scenes' | 'videos', partId: string): string =>
  `${storyPath(id)}/${part}/${encodeURIComponent(partId)}`;

/** POST story/{id}/{part}/{partId}/takes/{mediaId}/select (Kinora's), JSON: one of a part's takes made active. Free. */
export const selectStoryTake = (
  id: string,
  part: 'elements' | 'scenes' | 'videos',
  partId: string,
  mediaId: string,
  fields: TakeCallFields,
  options: CallOptions = {},
): Promise<Story> => apiPostJson(`${takePath(id, part, partId)}/takes/${encodeURIComponent(mediaId)}/select`, fields, storySchema, { signal: options.signal });

/** POST story/{id}/{part}/{partId}/undo (Kinora's), JSON: back to the take active before the part's last regeneration. Free. */
export const undoStoryTake = (id: string, part: 'elements' | 'scenes' | 'videos', partId: string, fields: TakeCallFields, options: CallOptions = {}): Promise<Story> =>
  apiPostJson(`${takePath(id, part, partId)}/undo`, fields, storySchema, { signal: options.signal });

