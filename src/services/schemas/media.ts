import { z } from './zod-mini';
// Relative imports: the local server loads this file under tsx and imports it by path.
import { VISIBILITIES } from '../../config/sharing';
import { GENERATION_STATUSES, ITEM_DONE_STATUS, MEDIA_KINDS, PROMPT_HELPER_MODES } from '../../config/enums';

/**
 * The media item of SPEC §3 as Kinora's API returns it (`GET media/{id}`, and every generation
 * and upload call, which answer with the job they created). SPEC shows only some fields; the rest
 * are Kinora's and marked so. Unknown statuses are kept as strings: the app treats a status it
 * does not know as still processing rather than dropping the answer.
 */

const itemStatus = z.union([z.enum(GENERATION_STATUSES.item), z.literal(ITEM_DONE_STATUS)]);

/** One produced file of a job (Kinora's): its signed, expiring URL and thumbnail. */
export const mediaResultItemSchema = z.object({
  type: z.enum(MEDIA_KINDS),
  status: itemStatus,
  /** Signed URL of the file (SPEC §4: files are addressed by id; URLs expire). */
  url: z.nullable(z.string()),
  thumbnail_url: z.nullable(z.string()),
  file_id: z.nullable(z.string()),
  /** Audio or video length, or image size, when known. */
  duration_seconds: z.optional(z.nullable(z.number())),
  /** SPEC §3 generated result item: a video's GIF (signed URL), its result folder, its label. */
  gif_url: z.optional(z.nullable(z.string())),
  folder_path: z.optional(z.nullable(z.string())),
  label: z.optional(z.nullable(z.string())),
  width: z.optional(z.nullable(z.number())),
  height: z.optional(z.nullable(z.number())),
  /** Kinora's (issue 21 item 7): the seed this picture was made with (a run of several: seed, seed + 1, …). */
  seed: z.optional(z.nullable(z.number())),
});
export type MediaResultItem = z.infer<typeof mediaResultItemSchema>;

/** SPEC §3 "Job history": a run's results are a string or an array of strings; args name the option. */
export const jobRunSchema = z.object({
  results: z.union([z.string(), z.array(z.string())]),
  args: z._default(
    z.catchall(
      z.object({
        option: z.optional(z.string()),
        effect: z.optional(z.string()),
        aspect_ratio: z.optional(z.string()),
        voice: z.optional(z.string()),
      }),
      z.unknown(),
    ),
    {},
  ),
});

export const mediaFileSchema = z.object({
  id: z.string(),
  name: z.string(),
  content_type: z.string(),
  bytes: z.number(),
  /** Kinora's: `result`, `thumbnail`, `original` (an upload as sent) or `input`. */
  role: z.string(),
});

export const mediaSchema = z.object({
  id: z.string(),
  /** SPEC §3: "2" or "3" means result paths use base_url. */
  version: z._default(z.string(), '3'),
  base_url: z._default(z.string(), ''),
  kind: z.enum(MEDIA_KINDS),
  /** Kinora's: the tool slug that made it (`text-to-image`, `upload-image`, …). */
  tool: z.string(),
  status: z.string(),
  /** Kinora's: 0–100. */
  progress: z._default(z.number().check(z.minimum(0), z.maximum(100)), 0),
  /** Kinora's: the model (`option`) and the credits debited for it (0 when not charged). */
  option: z._default(z.nullable(z.string()), null),
  cost: z._default(z.number(), 0),
  /** Kinora's: true once a failed, nsfw or cancelled job's credits were given back. */
  refunded: z._default(z.boolean(), false),
  error: z._default(z.nullable(z.string()), null),
  /** SPEC §6: guest jobs carry the logo variant. */
  logo_variant: z._default(z.boolean(), false),
  asset_id: z._default(z.nullable(z.string()), null),
  /** Kinora's sharing (SPEC §2.8): who may see it, with the title and description it is shared under. */
  visibility: z._default(z.enum(VISIBILITIES), 'private'),
  title: z._default(z.string(), ''),
  description: z._default(z.string(), ''),
  shared_at: z._default(z.nullable(z.string()), null),
  /** GET media/{id}/view only: whose it is. */
  owner: z.optional(z.object({ id: z.string(), preferred_username: z.nullable(z.string()) })),
  image_urls: z._default(z.array(z.string()), []),
  /** The request's fields as the job stored them (prompt, option, aspect_ratio, voice, …). */
  args: z._default(z.record(z.string(), z.unknown()), {}),
  /** Kinora's (issue 21 item 7): the seed a generation job's model was given; absent for uploads and older items. */
  seed: z.optional(z.nullable(z.number())),
  /** Kinora's (issue 21 item 2): a waiting job its owner holds; it starts once resumed. */
  held: z._default(z.boolean(), false),
  /** Kinora's (issue 21 item 2): a waiting job's place among its owner's waiting jobs (1 = next), where the answer counts it. */
  queue_position: z.optional(z.nullable(z.number())),
  created_at: z.string(),
  updated_at: z.string(),
  finished_at: z._default(z.nullable(z.string()), null),
  items: z._default(z.array(mediaResultItemSchema), []),
  files: z._default(z.array(mediaFileSchema), []),
  // SPEC §3 job history: one of these (or top-level results + args) carries the runs.
  history: z.optional(z.array(jobRunSchema)),
  image_history: z.optional(z.array(jobRunSchema)),
  video_history: z.optional(z.array(jobRunSchema)),
  audio_history: z.optional(z.array(jobRunSchema)),
  results: z.optional(z.union([z.string(), z.array(z.string())])),
});
export type Media = z.infer<typeof mediaSchema>;

/** GET media/{id}/processing-status, without auth: nothing but the progress of the job. */
export const processingStatusSchema = z.object({
  id: z.string(),
  status: z.string(),
  progress: z._default(z.number().check(z.minimum(0), z.maximum(100)), 0),
  items: z._default(z.array(z.object({ status: itemStatus })), []),
  updated_at: z.string(),
  /** Kinora's (issue 21 item 2): its owner holds it (it waits until resumed). */
  held: z._default(z.boolean(), false),
  /** Kinora's (issue 21 item 2): a waiting job's place among its owner's waiting jobs (1 = next); null otherwise. */
  queue_position: z._default(z.nullable(z.number()), null),
});
export type ProcessingStatus = z.infer<typeof processingStatusSchema>;

/** GET media/processing-status?ids=… (Kinora's): several jobs' progress; an unknown id is left out. */
export const processingStatusBatchSchema = z.object({ items: z.array(processingStatusSchema) });

/** GET media (Kinora's listing of the caller's own jobs, newest first; `?tool=&limit=`). */
export const mediaListSchema = z.object({ items: z.array(mediaSchema) });

/** GET media/{id}/file/{fileId}/get-url. */
export const fileUrlSchema = z.object({ url: z.string(), expires_at: z.string() });
export type FileUrl = z.infer<typeof fileUrlSchema>;

/** DELETE media/{id}. */
export const deletedSchema = z.object({ id: z.string(), deleted: z.literal(true) });

/** POST text/prompt (SPEC §7): the prompt the helper derived from the inputs. */
export const promptHelperResultSchema = z.object({
  mode: z.enum(PROMPT_HELPER_MODES.map((mode) => mode.value) as [string, ...string[]]),
  prompt: z.string(),
});
export type PromptHelperResult = z.infer<typeof promptHelperResultSchema>;
