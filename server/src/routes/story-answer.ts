import { storyHash } from '../../../src/lib/story.ts';
import type { Media } from '../../../src/services/schemas/media.ts';
import type { Story, StoryAsset, Storyboard, StorySummary, StoryTakes } from '../../../src/services/schemas/story.ts';
import type { Queryable } from '../db/database.ts';
import { fileOwners } from '../db/files.ts';
import { findOwnMediaRows, type StoredImageRef } from '../db/media.ts';
import type { StoryRow } from '../db/stories.ts';
import { mediaAnswers, type LinkMaker } from './media-answer.ts';

/**
 * A story as the API answers it (storySchema): its storyboard as stored, and every job the
 * storyboard names (each part's takes too) as a media answer with links signed at answer time (so a resumed story on
 * another device plays its pictures and videos without another call).
 */

const iso = (value: Date): string => value.toISOString();

/**
 * The storyboard's revision: a fingerprint of it as stored, so a save based on an older board (the
 * same story edited in two tabs) is refused instead of replacing the newer one. Read from the
 * stored JSON, whose key order PostgreSQL fixes, so the same board always gives the same revision.
 */
export const boardRevision = (board: Storyboard): string => storyHash(JSON.stringify(board));

/** Every part the storyboard names, in board order: element pictures, scene pictures and videos (with their other takes), the sound. */
function boardAssets(board: Storyboard): StoryAsset[] {
  const takes = (takes: StoryTakes | undefined): readonly StoryAsset[] => takes?.items ?? [];
  return [
    ...board.elements.flatMap((element) => [...(element.image ? [element.image] : []), ...takes(element.image_takes)]),
    ...board.scenes.flatMap((scene) => [
      ...[scene.image, scene.video].filter((asset): asset is StoryAsset => asset !== null),
      ...takes(scene.image_takes),
      ...takes(scene.video_takes),
    ]),
    ...(board.audio.track ? [board.audio.track] : []),
  ];
}

/** The reference pictures as signed links: the owner's own files (a file gone since is left out) or links as given. */
async function signedRefs(db: Queryable, row: StoryRow, links: LinkMaker): Promise<string[]> {
  const owners = await fileOwners(db, row.image_urls.flatMap((ref) => ('file_id' in ref ? [ref.file_id] : [])));
  return row.image_urls.flatMap((ref: StoredImageRef) => {
    if ('url' in ref) return [ref.url];
    return owners.get(ref.file_id) === row.user_sub ? [links.signer.sign(links.origin, ref.file_id).url] : [];
  });
}

export async function storyAnswer(db: Queryable, row: StoryRow, links: LinkMaker): Promise<Story> {
  const ids = [...new Set([...boardAssets(row.storyboard).map((asset) => asset.media_id), ...(row.concat_media_id ? [row.concat_media_id] : [])])];
  // One query for every part the board names, not one each (a 12-scene story names about 40).
  const rows = await findOwnMediaRows(db, ids, row.user_sub);
  const answers = new Map((await mediaAnswers(db, rows, links)).map((media) => [media.id, media]));
  const media: Record<string, Media> = {};
  for (const id of ids) {
    const answer = answers.get(id);
    if (answer && id !== row.concat_media_id) media[id] = answer;
  }
  return {
    id: row.id,
    idea: row.idea,
    duration: row.duration,
    aspect_ratio: row.aspect_ratio,
    style: row.style,
    image_urls: await signedRefs(db, row, links),
    step: row.step,
    storyboard: row.storyboard,
    revision: boardRevision(row.storyboard),
    media,
    concat: (row.concat_media_id && answers.get(row.concat_media_id)) || null,
    concat_source: row.concat_source,
    args: row.args,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

/** The title a story is listed by: its storyboard's, else the start of its idea. */
export const storyTitle = (row: Pick<StoryRow, 'idea' | 'storyboard'>): string =>
  row.storyboard.title.trim() || (row.idea.length > 60 ? `${row.idea.slice(0, 57).trimEnd()}…` : row.idea);

/** GET story's item: no media, but a cover (the first scene picture made, else the first element picture). */
export async function storySummary(db: Queryable, row: StoryRow, links: LinkMaker): Promise<StorySummary> {
  const candidates = [
    ...row.storyboard.scenes.flatMap((scene) => (scene.image ? [scene.image.media_id] : [])),
    ...row.storyboard.elements.flatMap((element) => (element.image ? [element.image.media_id] : [])),
  ];
  const media = new Map((await findOwnMediaRows(db, candidates, row.user_sub)).map((found) => [found.id, found]));
  let cover: string | null = null;
  for (const id of candidates) {
    const item = media.get(id)?.items[0];
    const fileId = item?.status === 'success' ? (item.thumbnail_file_id ?? item.file_id) : null;
    if (fileId) {
      cover = links.signer.sign(links.origin, fileId).url;
      break;
    }
  }
  return {
    id: row.id,
    title: storyTitle(row),
    idea: row.idea,
    step: row.step,
    scene_count: row.storyboard.scenes.length,
    cover_url: cover,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}
