import { z } from 'zod';
import {
  STORY_ASPECT_RATIOS,
  STORY_DURATIONS,
  STORY_IDEA,
  STORY_STAGES,
  STORY_STYLES,
  STORY_TITLE_MAX,
  STORY_TOOLS,
  type StoryStage,
} from '../../../src/config/story.ts';
import { narrationAfter, storyImageModels, storyVideoModels, type StatusOf } from '../../../src/lib/story.ts';
import { storyboardSchema, type StoryAsset, type Storyboard, type StoryTakes } from '../../../src/services/schemas/story.ts';
import type { Queryable } from '../db/database.ts';
import { isLive } from '../db/media.ts';
import { storyMediaInfo, type StoryMediaInfo } from '../db/stories.ts';
import { describeZodError, HttpError } from './http.ts';
import { boardRevision } from './story-answer.ts';

/**
 * What the story calls accept: the idea's settings (POST story, PUT story/{id}) and the
 * storyboard with its cross checks (every call that sends one). Each refusal is a 400 whose
 * detail says what to change.
 */

export const bad = (detail: string): HttpError => new HttpError(400, detail);

/** "Mara", "Mara and Bo", "Mara, Bo and The lighthouse". */
export function nameList(names: readonly string[]): string {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1) ?? ''}`;
}

const listOf = (values: readonly (string | number)[]): string => values.join(', ');

export function parseIdea(raw: unknown): string {
  if (typeof raw !== 'string') throw bad('idea is required: describe the story in a few sentences.');
  const idea = raw.trim();
  if (idea.length < STORY_IDEA.min || idea.length > STORY_IDEA.max) {
    throw bad(`idea must be ${STORY_IDEA.min} to ${STORY_IDEA.max} characters; it has ${idea.length}.`);
  }
  return idea;
}

export function parseDuration(raw: unknown): number {
  const value = typeof raw === 'string' ? Number(raw.trim()) : raw;
  if (typeof value !== 'number' || !(STORY_DURATIONS as readonly number[]).includes(value)) {
    throw bad(`duration must be one of ${listOf(STORY_DURATIONS)} (seconds).`);
  }
  return value;
}

export function parseAspectRatio(raw: unknown): string {
  if (typeof raw !== 'string' || !(STORY_ASPECT_RATIOS as readonly string[]).includes(raw.trim())) {
    throw bad(`aspect_ratio must be one of ${listOf(STORY_ASPECT_RATIOS)}.`);
  }
  return raw.trim();
}

export function parseStyle(raw: unknown): string {
  if (typeof raw !== 'string' || !STORY_STYLES.some((style) => style.value === raw.trim())) {
    throw bad(`style must be one of ${listOf(STORY_STYLES.map((style) => style.value))}.`);
  }
  return raw.trim();
}

export function parseTitle(raw: string | undefined): string | undefined {
  const title = raw?.trim();
  if (title !== undefined && title.length > STORY_TITLE_MAX) throw bad(`title can be at most ${STORY_TITLE_MAX} characters.`);
  return title === '' ? undefined : title;
}

export function parseImageModel(raw: string): string {
  const models = storyImageModels().map((model) => model.value);
  if (!models.includes(raw)) throw bad(`image_model must be one of ${listOf(models)}.`);
  return raw;
}

export function parseVideoModel(raw: string): string {
  const models = storyVideoModels().map((model) => model.value);
  if (!models.includes(raw)) throw bad(`video_model must be one of ${listOf(models)}.`);
  return raw;
}

export function parseStep(raw: unknown): StoryStage {
  if (typeof raw !== 'string' || !(STORY_STAGES as readonly string[]).includes(raw)) {
    throw bad(`step must be one of ${listOf(STORY_STAGES)}.`);
  }
  return raw as StoryStage;
}

/** PUT story/{id}'s JSON body: each field checked on its own (above), so its 400 names it. */
export const saveStorySchema = z
  .object({
    storyboard: z.unknown().optional(),
    step: z.unknown().optional(),
    idea: z.unknown().optional(),
    duration: z.unknown().optional(),
    aspect_ratio: z.unknown().optional(),
    style: z.unknown().optional(),
    rewrite: z.boolean().optional(),
    /** The storyboard's revision the sent one was edited from (Story.revision); absent = not checked. */
    revision: z.string().max(64).optional(),
  })
  .strict();

/** A storyboard sent from an older revision than the stored one. */
export const staleBoard = (): HttpError =>
  new HttpError(412, 'This storyboard was changed in another tab or window since you opened it: load the story again to see those changes.');

/** A board sent from an older revision than the stored one is refused (absent: not checked, as before revisions). */
export function checkRevision(story: { storyboard: Storyboard }, revision: string | undefined): void {
  if (revision !== undefined && revision.trim() !== '' && revision.trim() !== boardRevision(story.storyboard)) throw staleBoard();
}

/**
 * A board whose scenes changed but whose narration was sent as stored (a caller that does not make
 * it follow them): the narration takes the scenes' new words here, so its sound goes stale with them.
 */
export function followNarration(stored: Storyboard, sent: Storyboard): Storyboard {
  if (sent.audio.text !== stored.audio.text) return sent;
  const text = narrationAfter(stored, sent);
  return text === sent.audio.text ? sent : { ...sent, audio: { ...sent.audio, text } };
}

/** A storyboard as sent: a JSON string (multipart) or an object (PUT's JSON body). */
function parseBoardShape(raw: unknown): Storyboard {
  let value = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw) as unknown;
    } catch {
      throw bad('storyboard must be JSON: {"title", "image_model", "video_model", "scenes": […], "elements": […], "audio": {…}}.');
    }
  }
  const result = storyboardSchema.safeParse(value);
  if (!result.success) throw bad(`storyboard is invalid: ${describeZodError(result.error)}`);
  return result.data;
}

function duplicate(ids: readonly string[]): string | undefined {
  const seen = new Set<string>();
  for (const id of ids) {
    if (seen.has(id)) return id;
    seen.add(id);
  }
  return undefined;
}

/** The media `tool` each asset of a storyboard must have been made with. */
const ASSET_TOOLS = {
  element: STORY_TOOLS.element,
  scene: STORY_TOOLS.scene,
  video: STORY_TOOLS.video,
  audio: STORY_TOOLS.audio,
} as const;

/** Status class of a media status, as src/lib/story.ts reads them. */
export function statusClass(status: string | undefined): ReturnType<StatusOf> {
  if (status === undefined) return undefined;
  if (isLive(status)) return 'processing';
  if (status.startsWith('success')) return 'success';
  if (status === 'nsfw' || status === 'cancelled') return status;
  return 'failed';
}

/** A storyboard checked against this story, and what the story's media rows are now. */
export interface CheckedBoard {
  board: Storyboard;
  media: Map<string, StoryMediaInfo>;
  statusOf: StatusOf;
}

/**
 * Parses a storyboard and checks it against the story it is sent for: ids unique, every scene's
 * element_ids naming elements of the board, models the story steps take, and every generated
 * part naming a job of THIS story made for that kind of part (a job of another story, another
 * person's job or a scene picture named as a video is a 400). A part whose job no longer exists
 * (deleted on its own since) is emptied rather than refused, so a board that was valid stays savable.
 */
export async function checkStoryboard(db: Queryable, storyId: string, raw: unknown): Promise<CheckedBoard> {
  const board = parseBoardShape(raw);
  const sceneDuplicate = duplicate(board.scenes.map((scene) => scene.id));
  if (sceneDuplicate) throw bad(`storyboard: the scene id "${sceneDuplicate}" is used twice.`);
  const elementDuplicate = duplicate(board.elements.map((element) => element.id));
  if (elementDuplicate) throw bad(`storyboard: the element id "${elementDuplicate}" is used twice.`);
  const elementIds = new Set(board.elements.map((element) => element.id));
  for (const [index, scene] of board.scenes.entries()) {
    const unknown = scene.element_ids.find((id) => !elementIds.has(id));
    if (unknown !== undefined) throw bad(`storyboard scene ${index + 1} names the element "${unknown}", which the storyboard does not have.`);
    const repeated = duplicate(scene.element_ids);
    if (repeated !== undefined) throw bad(`storyboard scene ${index + 1} names the element "${repeated}" twice.`);
  }
  try {
    parseImageModel(board.image_model);
    parseVideoModel(board.video_model);
  } catch (error) {
    if (error instanceof HttpError) throw bad(`storyboard.${error.detail}`);
    throw error;
  }

  const named: { asset: StoryAsset; tool: string; what: string }[] = [];
  const nameTakes = (takes: StoryTakes | undefined, tool: string, what: string) => {
    for (const take of takes?.items ?? []) named.push({ asset: take, tool, what: `a take of ${what}` });
  };
  for (const element of board.elements) {
    if (element.image) named.push({ asset: element.image, tool: ASSET_TOOLS.element, what: `the picture of ${element.name}` });
    nameTakes(element.image_takes, ASSET_TOOLS.element, `the picture of ${element.name}`);
  }
  for (const [index, scene] of board.scenes.entries()) {
    if (scene.image) named.push({ asset: scene.image, tool: ASSET_TOOLS.scene, what: `the picture of scene ${index + 1}` });
    if (scene.video) named.push({ asset: scene.video, tool: ASSET_TOOLS.video, what: `the video of scene ${index + 1}` });
    nameTakes(scene.image_takes, ASSET_TOOLS.scene, `the picture of scene ${index + 1}`);
    nameTakes(scene.video_takes, ASSET_TOOLS.video, `the video of scene ${index + 1}`);
  }
  if (board.audio.track) named.push({ asset: board.audio.track, tool: ASSET_TOOLS.audio, what: 'the sound' });
  const media = await storyMediaInfo(
    db,
    named.map((item) => item.asset.media_id),
  );
  const gone = new Set<string>();
  for (const { asset, tool, what } of named) {
    const row = media.get(asset.media_id);
    if (!row) {
      gone.add(asset.media_id);
      continue;
    }
    if (row.story_id !== storyId) throw bad(`storyboard: ${what} names media ${asset.media_id}, which is not a part of this story.`);
    if (row.tool !== tool) throw bad(`storyboard: ${what} names media ${asset.media_id}, which was not made as one (it is a ${row.tool} job).`);
  }
  const keep = (asset: StoryAsset | null): StoryAsset | null => (asset && gone.has(asset.media_id) ? null : asset);
  // A take whose job is gone leaves the list; Undo returns only to a take still in it.
  const keepTakes = (takes: StoryTakes | undefined): StoryTakes | undefined => {
    if (!takes) return undefined;
    const items = takes.items.filter((take) => !gone.has(take.media_id));
    const before = takes.before !== null && items.some((take) => take.media_id === takes.before) ? takes.before : null;
    return items.length === takes.items.length && before === takes.before ? takes : { items, before };
  };
  const cleaned: Storyboard = {
    ...board,
    elements: board.elements.map((element) => ({ ...element, image: keep(element.image), image_takes: keepTakes(element.image_takes) })),
    scenes: board.scenes.map((scene) => ({
      ...scene,
      image: keep(scene.image),
      video: keep(scene.video),
      image_takes: keepTakes(scene.image_takes),
      video_takes: keepTakes(scene.video_takes),
    })),
    audio: { ...board.audio, track: keep(board.audio.track) },
  };
  return { board: JSON.stringify(cleaned) === JSON.stringify(board) ? board : cleaned, media, statusOf: (id) => statusClass(media.get(id)?.status) };
}
