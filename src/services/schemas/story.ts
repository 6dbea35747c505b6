import { z } from 'zod';
// Relative imports: the local server loads this file under tsx and imports it by path.
import {
  STORY_AUDIO_KIND_VALUES,
  STORY_AUDIO_TEXT_MAX,
  STORY_ELEMENT_DESCRIPTION_MAX,
  STORY_ELEMENT_KIND_VALUES,
  STORY_ELEMENT_NAME_MAX,
  STORY_ELEMENTS_MAX,
  STORY_SCENE_DURATION,
  STORY_SCENE_TEXT_MAX,
  STORY_SCENES,
  STORY_SHOT_VALUES,
  STORY_STAGES,
  STORY_TAKES_MAX,
  type StoryStage,
} from '../../config/story';
import { mediaSchema } from './media';

/**
 * An AI Story (SPEC §3 Story) as Kinora's API answers it. SPEC gives `image_urls[]`, the
 * storyboard (JSON) sent to the elements, scenes and videos calls, and `concat_video_urls[]` /
 * `audio_urls[]` for the concatenation; the storyboard's shape and the other fields are Kinora's.
 *
 * Generated pictures, videos and sounds are named in the storyboard by their media job
 * (`media_id`) and the fingerprint (`source`) of what they were made from: when the person
 * changes something a result depends on, its fingerprint no longer matches and the result is
 * stale (src/lib/story.ts) — kept and shown, never silently dropped.
 */

const id = z.string().min(1).max(64);

/** A result of the story: the job that makes it and the fingerprint of its inputs at that time. */
export const storyAssetSchema = z.object({ media_id: id, source: z.string().max(64) });
export type StoryAsset = z.infer<typeof storyAssetSchema>;

/**
 * The takes of one part (Kinora's, issue 21): every result made for it, oldest first — the active
 * one is the part's `image` or `video` — and the take that was active before the last
 * regeneration (what Undo returns to; null when there is nothing to undo). Absent on a part never
 * regenerated since takes were kept: its active result is its only take.
 */
export const storyTakesSchema = z.object({
  items: z.array(storyAssetSchema).max(STORY_TAKES_MAX).default([]),
  before: id.nullable().default(null),
});
export type StoryTakes = z.infer<typeof storyTakesSchema>;

export const storyElementSchema = z.object({
  id,
  kind: z.enum(STORY_ELEMENT_KIND_VALUES),
  name: z.string().trim().min(1).max(STORY_ELEMENT_NAME_MAX),
  description: z.string().max(STORY_ELEMENT_DESCRIPTION_MAX).default(''),
  image: storyAssetSchema.nullable().default(null),
  image_takes: storyTakesSchema.optional(),
});
export type StoryElement = z.infer<typeof storyElementSchema>;

export const storySceneSchema = z.object({
  id,
  text: z.string().trim().min(1).max(STORY_SCENE_TEXT_MAX),
  shot: z.enum(STORY_SHOT_VALUES).default('medium'),
  /** Seconds: the length of the scene's video. */
  duration: z.number().int().min(STORY_SCENE_DURATION.min).max(STORY_SCENE_DURATION.max).default(STORY_SCENE_DURATION.default),
  /** The elements that appear in the scene (ids of storyboard.elements), drawn into its picture. */
  element_ids: z.array(id).max(STORY_ELEMENTS_MAX).default([]),
  image: storyAssetSchema.nullable().default(null),
  video: storyAssetSchema.nullable().default(null),
  image_takes: storyTakesSchema.optional(),
  video_takes: storyTakesSchema.optional(),
});
export type StoryScene = z.infer<typeof storySceneSchema>;

/** The sound under the film (the scriptboard's audio track). */
export const storyAudioSchema = z.object({
  kind: z.enum(STORY_AUDIO_KIND_VALUES).default('none'),
  /** Narration: the words spoken; music: what it should sound like. */
  text: z.string().max(STORY_AUDIO_TEXT_MAX).default(''),
  /** Narration's voice (SPEC §9 voices); '' for music. */
  voice: z.string().max(60).default(''),
  track: storyAssetSchema.nullable().default(null),
});
export type StoryAudio = z.infer<typeof storyAudioSchema>;

export const storyboardSchema = z.object({
  title: z.string().max(80).default(''),
  /** The `scene-image` model of element and scene pictures (SPEC §3), and the motion model of the videos. */
  image_model: z.string().min(1).max(60),
  video_model: z.string().min(1).max(60),
  scenes: z.array(storySceneSchema).min(STORY_SCENES.min).max(STORY_SCENES.max),
  elements: z.array(storyElementSchema).max(STORY_ELEMENTS_MAX).default([]),
  /** The scriptboard: the scenes' videos in scene order on a timeline, with this sound under them. */
  audio: storyAudioSchema.default({ kind: 'none', text: '', voice: '', track: null }),
});
export type Storyboard = z.infer<typeof storyboardSchema>;

export const storyStageSchema = z.enum(STORY_STAGES as [StoryStage, ...StoryStage[]]);

export const storySchema = z.object({
  id: z.string(),
  /** The idea (SPEC §2.10 topic 22) and its settings, as POST story or PUT story/{id} last set them. */
  idea: z.string(),
  duration: z.number(),
  aspect_ratio: z.string(),
  style: z.string(),
  /** Signed URLs of the reference pictures the story started from. */
  image_urls: z.array(z.string()).default([]),
  /** The step the person was last on (Kinora's: what a reload or another device resumes). */
  step: storyStageSchema,
  storyboard: storyboardSchema,
  /**
   * The storyboard's revision (Kinora's): sent back with a save or a paid call, which the server
   * refuses (412) when the storyboard was changed elsewhere since — two tabs never overwrite each other.
   */
  revision: z.string().max(64).default(''),
  /** Every job the storyboard names (elements, scenes, videos, the sound), by media id, with signed URLs. */
  media: z.record(z.string(), mediaSchema).default({}),
  /** The last join of the videos into one film, once one was asked for. */
  concat: z.nullable(mediaSchema).default(null),
  /** Fingerprint of the videos and sound that join was made from (storyConcatSource). */
  concat_source: z.string().default(''),
  args: z.record(z.string(), z.unknown()).default({}),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Story = z.infer<typeof storySchema>;

/** GET story (Kinora's): the caller's stories, newest first, without their media. */
export const storySummarySchema = z.object({
  id: z.string(),
  title: z.string(),
  idea: z.string(),
  step: storyStageSchema,
  scene_count: z.number().int(),
  /** A signed thumbnail of the first scene picture (or element picture) made, else null. */
  cover_url: z.string().nullable().default(null),
  created_at: z.string(),
  updated_at: z.string(),
});
export type StorySummary = z.infer<typeof storySummarySchema>;
export const storyListSchema = z.object({ items: z.array(storySummarySchema) });

/** DELETE story/{id}. */
export const storyDeletedSchema = z.object({ id: z.string(), deleted: z.literal(true) });
