import { z } from 'zod';
// Relative imports: the local server loads this file under tsx and imports it by path.
import { BATCH_TYPES } from '../../config/batch';
import { mediaSchema } from './media';

/**
 * A batch album (SPEC §3 Batch) as Kinora's API answers it. SPEC gives `image_urls[]`,
 * `audio_urls[]`, `concat_video_urls[]`, `additional_videos` (JSON) and `script_board` (JSON); the
 * script board's shape and the other fields are Kinora's.
 */

/** One clip of the script board: what to make of one picture. */
export const scriptBoardClipSchema = z.object({
  /** Stable id of the clip within the board (the web app's key; kept across edits). */
  id: z.string().min(1).max(64),
  /** The picture (a URL from the album's image_urls). */
  image_url: z.string().min(1),
  prompt: z.string().max(2000).default(''),
  /** AI batch: a camera motion value (SPEC §9, e.g. `PanRight`, `Auto`); parallax batch: `Parallax`. */
  motion_type: z.string().min(1).max(40),
  /** Parallax batch: the camera path (SPEC §9 value); null otherwise. */
  camera_path: z.string().max(40).nullable().default(null),
  /** AI batch: the motion model (SPEC §9 value); '' for parallax. */
  model: z.string().max(40).default(''),
  motion_length: z.number().min(1).max(30).default(5),
  motion_amount: z.number().min(1).max(10).default(5),
});
export type ScriptBoardClip = z.infer<typeof scriptBoardClipSchema>;

export const scriptBoardSchema = z.object({ clips: z.array(scriptBoardClipSchema).max(50) });
export type ScriptBoard = z.infer<typeof scriptBoardSchema>;

/** An extra video appended after the clips in the concatenation. */
export const additionalVideoSchema = z.object({ url: z.string().min(1), label: z.string().max(120).default('') });
export type AdditionalVideo = z.infer<typeof additionalVideoSchema>;

export const batchSchema = z.object({
  id: z.string(),
  batch_type: z.enum(BATCH_TYPES.map((type) => type.value) as [string, ...string[]]),
  title: z.string().default(''),
  /** Signed URLs of the album's pictures, in order. */
  image_urls: z.array(z.string()).default([]),
  /** The sound under the concatenated video (first one used), signed URLs. */
  audio_urls: z.array(z.string()).default([]),
  /** The clips (result video URLs) in the order they are joined. */
  concat_video_urls: z.array(z.string()).default([]),
  additional_videos: z.array(additionalVideoSchema).default([]),
  script_board: scriptBoardSchema.nullable().default(null),
  /** Kinora's: the clip jobs (one media item per clip) of the last generation, in board order. */
  videos: z.array(mediaSchema).default([]),
  /** Kinora's: the concatenation job, once one was asked for. */
  concat: z.nullable(mediaSchema).default(null),
  /** The free-form fields the album was created or edited with. */
  args: z.record(z.string(), z.unknown()).default({}),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Batch = z.infer<typeof batchSchema>;

/** GET batch (Kinora's listing of the caller's albums, newest first). */
export const batchListSchema = z.object({ items: z.array(batchSchema) });

/** DELETE batch/{id}. */
export const batchDeletedSchema = z.object({ id: z.string(), deleted: z.literal(true) });
