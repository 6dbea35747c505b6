import type { Storyboard } from '@/services/schemas/story';
import { freeId } from '@/machines/story/story-board';

/**
 * Two tabs (issue 17): this tab's board edits merged into a newer board saved elsewhere, field by
 * field, so no edit of either side is lost. Pure; the storyWizard machine merges after a 412.
 */

/** The board edits of this tab merged into a newer board saved elsewhere (another tab or device). */
export interface BoardMerge {
  board: Storyboard;
  /** Places where both changed the same thing (this tab's version was kept), or one removed what the other changed (kept). */
  conflicts: number;
}

const same = (left: unknown, right: unknown): boolean => JSON.stringify(left) === JSON.stringify(right);

/** An object field by field: a field this tab changed since `base` takes this tab's value, every other field theirs. */
function mergeFields<T extends object>(base: T, mine: T, theirs: T, tally: { conflicts: number }): T {
  const merged = { ...theirs };
  for (const key of Object.keys(mine) as (keyof T)[]) {
    if (same(mine[key], base[key])) continue;
    if (!same(theirs[key], base[key]) && !same(theirs[key], mine[key])) tally.conflicts += 1;
    merged[key] = mine[key];
  }
  return merged;
}

/**
 * A list of scenes or elements: an item added on either side is kept (this tab's gets a new id
 * when the other side added one with the same id); one removed on one side is removed unless the
 * other side changed it; one on both sides is merged field by field. The order is this tab's when
 * it moved items, else theirs; an item only one side has follows the item before it there.
 */
function mergeList<T extends { id: string }>(
  base: readonly T[],
  mine: readonly T[],
  theirs: readonly T[],
  prefix: string,
  tally: { conflicts: number },
): { items: T[]; renamed: Map<string, string> } {
  const byId = (items: readonly T[]) => new Map(items.map((item) => [item.id, item]));
  const baseById = byId(base);
  const theirsById = byId(theirs);
  const renamed = new Map<string, string>();
  const taken: { id: string }[] = [...base, ...mine, ...theirs];
  const mineItems = mine.map((item) => {
    if (baseById.has(item.id) || !theirsById.has(item.id)) return item;
    const id = freeId(prefix, taken);
    taken.push({ id });
    renamed.set(item.id, id);
    return { ...item, id };
  });
  const mineById = byId(mineItems);

  const kept = (item: T, other: Map<string, T>): boolean => {
    const before = baseById.get(item.id);
    if (!before || other.has(item.id)) return true;
    // Removed on the other side: kept only when this side changed it since.
    const changedSince = !same(before, item);
    if (changedSince) tally.conflicts += 1;
    return changedSince;
  };
  const version = (item: T): T => {
    const before = baseById.get(item.id);
    const mineItem = mineById.get(item.id);
    const theirsItem = theirsById.get(item.id);
    if (before && mineItem && theirsItem) return mergeFields(before, mineItem, theirsItem, tally);
    return mineItem ?? theirsItem ?? item;
  };

  const order = (items: readonly T[]) => items.filter((item) => baseById.has(item.id)).map((item) => item.id);
  const moved = !same(order(mine).filter((id) => theirsById.has(id)), order(base).filter((id) => mineById.has(id) && theirsById.has(id)));
  const [primary, secondary] = moved ? [mineItems, theirs] : [theirs, mineItems];
  const [primaryOther, secondaryOther] = moved ? [theirsById, mineById] : [mineById, theirsById];
  const result = primary.filter((item) => kept(item, primaryOther));
  for (const [index, item] of secondary.entries()) {
    if (result.some((candidate) => candidate.id === item.id) || !kept(item, secondaryOther)) continue;
    const previous = secondary[index - 1];
    const at = previous ? result.findIndex((candidate) => candidate.id === previous.id) + 1 : 0;
    result.splice(at, 0, item);
  }
  return { items: result.map(version), renamed };
}

/**
 * This tab's board (`mine`, edited from `base`) merged into the one saved meanwhile (`theirs`):
 * no edit of either side is lost; where both changed the same field, this tab's value is kept and
 * counted. Generated parts come from theirs unless this tab made them (it never edits them).
 */
export function mergeBoards(base: Storyboard, mine: Storyboard, theirs: Storyboard): BoardMerge {
  const tally = { conflicts: 0 };
  const elements = mergeList(base.elements, mine.elements, theirs.elements, 'el', tally);
  const myScenes = mine.scenes.map((scene) => ({ ...scene, element_ids: scene.element_ids.map((id) => elements.renamed.get(id) ?? id) }));
  const scenes = mergeList(base.scenes, myScenes, theirs.scenes, 'scene', tally);
  const elementIds = new Set(elements.items.map((element) => element.id));
  const settings = (board: Storyboard) => ({ title: board.title, image_model: board.image_model, video_model: board.video_model });
  // In the storyboard's own key order, so a merge that changes nothing compares equal to theirs.
  const board: Storyboard = {
    ...mergeFields(settings(base), settings(mine), settings(theirs), tally),
    scenes: scenes.items.map((scene) => ({ ...scene, element_ids: scene.element_ids.filter((id) => elementIds.has(id)) })),
    elements: elements.items,
    audio: mergeFields(base.audio, mine.audio, theirs.audio, tally),
  };
  return { board, conflicts: tally.conflicts };
}
