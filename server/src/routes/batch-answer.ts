import type { Batch, ScriptBoard } from '../../../src/services/schemas/batch.ts';
import type { BatchRow, StoredAdditionalVideo } from '../db/batch.ts';
import type { Queryable } from '../db/database.ts';
import { fileOwners } from '../db/files.ts';
import { findMedia, type MediaRow, type StoredImageRef } from '../db/media.ts';
import { parseFileLink } from '../jobs/file-signing.ts';
import { mediaAnswers, type LinkMaker } from './media-answer.ts';

/**
 * An album as the API answers it (batchSchema). Like a media answer, every link to the owner's
 * own files is signed at answer time, so a stored album never hands out a link past its hour; a
 * link someone else shared stays as it was given (it expires as they meant it to).
 */

const iso = (value: Date): string => value.toISOString();

/** The file ids an album refers to: its refs, and the Kinora file links inside its script board. */
function referredFiles(row: BatchRow): string[] {
  const refs = [...row.image_urls, ...row.audio_urls, ...row.concat_video_urls, ...row.additional_videos];
  const ids = refs.flatMap((ref) => ('file_id' in ref ? [ref.file_id] : []));
  for (const clip of row.script_board?.clips ?? []) {
    const link = parseFileLink(clip.image_url);
    if (link) ids.push(link.fileId);
  }
  return ids;
}

export async function batchAnswer(db: Queryable, row: BatchRow, links: LinkMaker): Promise<Batch> {
  const owners = await fileOwners(db, [...new Set(referredFiles(row))]);
  const ownFile = (fileId: string): boolean => owners.get(fileId) === row.user_sub;
  const sign = (fileId: string): string => links.signer.sign(links.origin, fileId).url;
  // A file reference whose file is gone (deleted since) is left out, as media answers do.
  const signRefs = (refs: readonly StoredImageRef[]): string[] =>
    refs.flatMap((ref) => ('url' in ref ? [ref.url] : ownFile(ref.file_id) ? [sign(ref.file_id)] : []));
  const additional = (videos: readonly StoredAdditionalVideo[]): Batch['additional_videos'] =>
    videos.flatMap((video) => signRefs([video]).map((url) => ({ url, label: video.label })));
  // The board names pictures by the links it was written with: the owner's are signed afresh.
  const board = (stored: ScriptBoard | null): ScriptBoard | null =>
    stored && {
      clips: stored.clips.map((clip) => {
        const link = parseFileLink(clip.image_url);
        return link && ownFile(link.fileId) ? { ...clip, image_url: sign(link.fileId) } : clip;
      }),
    };

  const mediaIds = [...row.video_media_ids, ...(row.concat_media_id ? [row.concat_media_id] : [])];
  const mediaRows = (await Promise.all(mediaIds.map((id) => findMedia(db, id)))).filter(
    // A clip deleted on its own (DELETE media) is no longer part of the album's answer.
    (media): media is MediaRow => media !== null && media.user_sub === row.user_sub,
  );
  const answers = new Map((await mediaAnswers(db, mediaRows, links)).map((media) => [media.id, media]));
  return {
    id: row.id,
    batch_type: row.batch_type,
    title: row.title,
    image_urls: signRefs(row.image_urls),
    audio_urls: signRefs(row.audio_urls),
    concat_video_urls: signRefs(row.concat_video_urls),
    additional_videos: additional(row.additional_videos),
    script_board: board(row.script_board),
    videos: row.video_media_ids.flatMap((id) => answers.get(id) ?? []),
    concat: (row.concat_media_id && answers.get(row.concat_media_id)) || null,
    args: row.args,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

/** Fields a `?fields=` answer always keeps: what identifies an album and what batchSchema requires. */
const ALWAYS_ANSWERED = ['id', 'batch_type', 'created_at', 'updated_at'] as const;

/** GET batch/{id}?fields=a,b: only those fields (plus the ones every answer needs). */
export function pickBatchFields(batch: Batch, fields: string | undefined): Partial<Batch> {
  if (!fields) return batch;
  const wanted = new Set<string>([...fields.split(',').map((field) => field.trim()), ...ALWAYS_ANSWERED]);
  return Object.fromEntries(Object.entries(batch).filter(([key]) => wanted.has(key))) as Partial<Batch>;
}
