import { STORY_TAKES_MAX } from '../config/story';
import type { StoryAsset } from './story';

/**
 * Takes of a story's parts (issue 21 item 4), shared by the web app and the local server: every
 * regeneration of an element picture, a scene picture or a scene video keeps the takes before
 * it; the person picks the active one, or undoes the last regeneration (back to the take active
 * before it; the newer take stays in the list). The active take is what the board names as the
 * part's `image` or `video`, so staleness (src/lib/story.ts) reads it as before: a take made from
 * inputs that changed since is stale, and so is what was made from another take of its input.
 */

/** The parts that keep takes, named as their paid calls are (story/{id}/elements | scenes | videos). */
export type TakePart = 'elements' | 'scenes' | 'videos';
export const TAKE_PARTS: readonly TakePart[] = ['elements', 'scenes', 'videos'];

/** The takes of one part as a storyboard stores them (storyTakesSchema). */
export interface StoryTakes {
  items: readonly StoryAsset[];
  before: string | null;
}

interface TakeElement {
  id: string;
  image: StoryAsset | null;
  image_takes?: StoryTakes | undefined;
}
interface TakeScene {
  id: string;
  image: StoryAsset | null;
  video: StoryAsset | null;
  image_takes?: StoryTakes | undefined;
  video_takes?: StoryTakes | undefined;
}
/** The parts of a storyboard these helpers read; lib never imports services. */
interface TakeBoard {
  elements: readonly TakeElement[];
  scenes: readonly TakeScene[];
}

/** One part's active result and its stored takes. */
export interface TakeSlot {
  active: StoryAsset | null;
  takes: StoryTakes | undefined;
}

/** The slot of an element's picture, a scene's picture or a scene's video; null when the board has no such element or scene. */
export function takeSlot(board: TakeBoard, part: TakePart, partId: string): TakeSlot | null {
  if (part === 'elements') {
    const element = board.elements.find((item) => item.id === partId);
    return element ? { active: element.image, takes: element.image_takes } : null;
  }
  const scene = board.scenes.find((item) => item.id === partId);
  if (!scene) return null;
  return part === 'scenes' ? { active: scene.image, takes: scene.image_takes } : { active: scene.video, takes: scene.video_takes };
}

/** A part's takes, oldest first: the stored ones, and the active one when a board from before takes names it alone. */
export function takesOf(slot: TakeSlot): StoryAsset[] {
  const items = [...(slot.takes?.items ?? [])];
  if (slot.active && !items.some((take) => take.media_id === slot.active?.media_id)) items.push(slot.active);
  return items;
}

/** The take Undo returns to: the one active before the last regeneration, while it is still a take; else null. */
export function undoTakeOf(slot: TakeSlot): StoryAsset | null {
  const before = slot.takes?.before ?? null;
  if (before === null || before === slot.active?.media_id) return null;
  return takesOf(slot).find((take) => take.media_id === before) ?? null;
}

/** The board with one part's slot replaced (the same board when it has no such part). */
function withSlot<B extends TakeBoard>(board: B, part: TakePart, partId: string, active: StoryAsset, takes: StoryTakes): B {
  if (part === 'elements') {
    return { ...board, elements: board.elements.map((item) => (item.id === partId ? { ...item, image: active, image_takes: takes } : item)) };
  }
  const fields = part === 'scenes' ? { image: active, image_takes: takes } : { video: active, video_takes: takes };
  return { ...board, scenes: board.scenes.map((item) => (item.id === partId ? { ...item, ...fields } : item)) };
}

/**
 * A regeneration's result placed: the new take is added (the oldest leaves past STORY_TAKES_MAX)
 * and made active, and the one active before it is what Undo returns to.
 */
export function placeTake<B extends TakeBoard>(board: B, part: TakePart, partId: string, made: StoryAsset): B {
  const slot = takeSlot(board, part, partId);
  if (!slot) return board;
  const items = [...takesOf(slot).filter((take) => take.media_id !== made.media_id), made].slice(-STORY_TAKES_MAX);
  const before = slot.active && items.some((take) => take.media_id === slot.active?.media_id) ? slot.active.media_id : null;
  return withSlot(board, part, partId, made, { items, before });
}

/**
 * One of a part's takes made active (picked, or the one Undo returns to). Nothing is left to undo
 * then: the person chose; the newer takes stay in the list to be picked again.
 */
export function activateTake<B extends TakeBoard>(board: B, part: TakePart, partId: string, take: StoryAsset): B {
  const slot = takeSlot(board, part, partId);
  if (!slot) return board;
  return withSlot(board, part, partId, take, { items: takesOf(slot), before: null });
}
