import type { Media, MediaResultItem } from '../../../src/services/schemas/media.ts';
import type { Queryable } from '../db/database.ts';
import { fileOwners, filesOfMedia, type MediaFileRow } from '../db/files.ts';
import { usesBaseUrl } from '../../../src/lib/result-paths.ts';
import type { MediaRow } from '../db/media.ts';
import type { FileSigner } from '../jobs/file-signing.ts';

/** How an answer makes its file links: signed now, for this caller's origin. */
export interface LinkMaker {
  origin: string;
  signer: FileSigner;
}

const iso = (value: Date | string | null): string | null =>
  value === null ? null : value instanceof Date ? value.toISOString() : new Date(value).toISOString();

/**
 * A media row as the API answers it (mediaSchema). Every url, thumbnail_url and gif_url is a signed
 * link made at answer time, so a stored answer never hands out a link that outlives its hour; so is
 * a version "3" media's base_url (SPEC §3), the signed prefix its files' paths are under.
 * `owners` maps the files image_urls refers to onto their owners: only the row owner's own files
 * are signed (a file reference to anyone else's file, or to a file that is gone, is left out).
 */
export function toMediaAnswer(
  row: MediaRow,
  files: readonly MediaFileRow[],
  links: LinkMaker,
  owners: ReadonlyMap<string, string> = new Map(),
): Media {
  const byId = new Map(files.map((file) => [file.id, file]));
  const link = (fileId: string | null | undefined): string | null =>
    fileId && byId.has(fileId) ? links.signer.sign(links.origin, fileId).url : null;
  const items: MediaResultItem[] = row.items.map((item) => {
    // A video creation job commits its files a stage before it succeeds: they are answered only
    // with the job's success (or kept from view when it is cancelled in its last stage).
    const shown = item.status === 'success';
    const file = shown && item.file_id ? byId.get(item.file_id) : undefined;
    const answer: MediaResultItem = {
      type: row.kind,
      status: item.status,
      url: shown ? link(item.file_id) : null,
      thumbnail_url: shown ? link(item.thumbnail_file_id) : null,
      file_id: file?.id ?? null,
      duration_seconds: file?.duration_seconds ?? null,
      width: file?.width ?? null,
      height: file?.height ?? null,
    };
    // SPEC §3 generated result item: only results that have them carry a GIF, a folder and a label.
    if (item.gif_file_id !== undefined) answer.gif_url = shown ? link(item.gif_file_id) : null;
    if (item.folder_path !== undefined) answer.folder_path = item.folder_path;
    if (item.label !== undefined) answer.label = item.label;
    // Issue 21 item 7: each picture of a run shows the seed it was made with.
    if (typeof item.seed === 'number') answer.seed = item.seed;
    return answer;
  });
  const results = items.map((item) => item.url).filter((url): url is string => url !== null);
  return {
    id: row.id,
    version: row.version,
    base_url: usesBaseUrl(row.version) ? links.signer.signMediaBase(links.origin, row.id).url : row.base_url,
    kind: row.kind,
    tool: row.tool,
    status: row.status,
    progress: row.progress,
    option: row.option,
    cost: row.cost,
    refunded: row.refund_ledger_id !== null,
    error: row.error,
    logo_variant: row.logo_variant,
    asset_id: row.asset_id,
    visibility: row.visibility,
    title: row.title,
    description: row.description,
    shared_at: iso(row.shared_at),
    image_urls: row.image_urls.flatMap((ref) => {
      if ('url' in ref) return [ref.url];
      return owners.get(ref.file_id) === row.user_sub ? [links.signer.sign(links.origin, ref.file_id).url] : [];
    }),
    args: row.args,
    // Issue 21 item 7: the seed its model was given (generation jobs only).
    ...(row.seed !== null ? { seed: row.seed } : {}),
    // Issue 21 item 2: a waiting job its owner holds (queue_position is added where it is counted).
    held: Boolean(row.held_at),
    created_at: iso(row.created_at) ?? '',
    updated_at: iso(row.updated_at) ?? '',
    finished_at: iso(row.finished_at),
    items,
    files: files.map((file) => ({
      id: file.id,
      name: file.name,
      content_type: file.content_type,
      bytes: file.bytes,
      role: file.role,
    })),
    // SPEC §3 job history without history arrays: top-level results plus args.
    ...(results.length > 0 ? { results } : {}),
  };
}

/** Answers for several rows, their files (and the owners of the files they refer to) loaded in one query each. */
export async function mediaAnswers(db: Queryable, rows: readonly MediaRow[], links: LinkMaker): Promise<Media[]> {
  const files = await filesOfMedia(
    db,
    rows.map((row) => row.id),
  );
  const referred = rows.flatMap((row) => row.image_urls.flatMap((ref) => ('file_id' in ref ? [ref.file_id] : [])));
  const owners = await fileOwners(db, [...new Set(referred)]);
  return rows.map((row) => toMediaAnswer(row, files.filter((file) => file.media_id === row.id), links, owners));
}

export async function mediaAnswer(db: Queryable, row: MediaRow, links: LinkMaker): Promise<Media> {
  const [answer] = await mediaAnswers(db, [row], links);
  if (!answer) throw new Error(`no answer for media ${row.id}`);
  return answer;
}
