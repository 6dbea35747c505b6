/**
 * AI batch and parallax batch albums (SPEC §1, §3 Batch, §7 batch calls, §2.10 topics 25 and 30).
 * An album holds pictures; its script board says, per picture, what clip to make; generating makes
 * one video job per clip; editing adds audio, extra videos and the concatenation into one video.
 */

/** `batch_type` of POST batch: AI motion clips (motion models) or parallax clips (camera paths). */
export const BATCH_TYPES = [
  { value: 'ai', label: 'AI batch' },
  { value: 'parallax', label: 'Parallax batch' },
] as const;
export type BatchType = (typeof BATCH_TYPES)[number]['value'];

/** Joining an album's videos into one: free, the clips were paid for when they were made (a hold's quote counts it). */
export const BATCH_JOIN_CREDITS = 0;
/** Pictures in one album. */
export const BATCH_PICTURES = { min: 1, max: 12 } as const;
/** An album's title. */
export const BATCH_TITLE_MAX = 80;
/** Extra videos (uploads or other results) appended to the concatenation. */
export const BATCH_ADDITIONAL_VIDEOS_MAX = 6;
/** The media item's `tool` of a batch clip and of the album's concatenated video. */
export const BATCH_CLIP_TOOL = 'batch-clip';
export const BATCH_CONCAT_TOOL = 'batch-concat';
