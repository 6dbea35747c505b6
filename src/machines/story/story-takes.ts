import { classifyStatus } from '@/lib/job-status';
import { takeSlot, takesOf, undoTakeOf, type TakePart } from '@/lib/story-takes';
import type { Story, Storyboard } from '@/services/schemas/story';
import { boardIsValid, partRecord, partStatesOf } from '@/machines/story/story-board';
import type { TakeChoice } from '@/machines/story/story-wizard.types';

/**
 * The takes of a story's parts as the wizard reads them (issue 21 item 4; src/lib/story-takes.ts):
 * which take a choice names, whether it can be made active now, and each part's takes as a card
 * shows them. Pure; the storyWizard machine's guard and the selectors share them.
 */

/** The take a choice makes active (the one picked, or the one Undo returns to); null when there is none. */
export function takeOfChoice(board: Storyboard, choice: TakeChoice): string | null {
  const slot = takeSlot(board, choice.part, choice.partId);
  if (!slot) return null;
  if (choice.mediaId === null) return undoTakeOf(slot)?.media_id ?? null;
  return takesOf(slot).some((take) => take.media_id === choice.mediaId) ? choice.mediaId : null;
}

/**
 * Whether a choice can be sent now: the board passes the API's checks (it is saved with it), the
 * take exists, is not the active one and has its result, and the part is not being made (its job
 * would land on a take the person left).
 */
export function canChooseTake(story: Story | null, board: Storyboard | null, choice: TakeChoice): boolean {
  if (!story || !board || !boardIsValid(board)) return false;
  const take = takeOfChoice(board, choice);
  const slot = takeSlot(board, choice.part, choice.partId);
  if (take === null || !slot || take === slot.active?.media_id) return false;
  const media = story.media[take];
  if (!media || classifyStatus(media.status) !== 'success') return false;
  return partRecord(partStatesOf(story, board), choice.part)[choice.partId] !== 'running';
}

/** One take as a card shows it. */
export interface TakeView {
  mediaId: string;
  /** 1 for the first take made. */
  number: number;
  active: boolean;
  status: 'made' | 'making' | 'failed';
  thumbnailUrl: string | null;
}

/** A part's takes (oldest first) and whether Undo can be pressed; no takes shown for a part made once. */
export interface PartTakesView {
  takes: TakeView[];
  /** The take Undo returns to (its number), or null when there is nothing to undo. */
  undoTo: number | null;
}

export function partTakesOf(story: Story, board: Storyboard, part: TakePart, partId: string): PartTakesView {
  const slot = takeSlot(board, part, partId);
  if (!slot) return { takes: [], undoTo: null };
  const takes = takesOf(slot).map((take, index): TakeView => {
    const media = story.media[take.media_id];
    const status = media ? classifyStatus(media.status) : 'failed';
    const item = media?.items[0];
    return {
      mediaId: take.media_id,
      number: index + 1,
      active: take.media_id === slot.active?.media_id,
      status: status === 'success' ? 'made' : status === 'processing' ? 'making' : 'failed',
      thumbnailUrl: status === 'success' ? (item?.thumbnail_url ?? item?.url ?? null) : null,
    };
  });
  const undo = undoTakeOf(slot);
  const undoTo = undo ? (takes.find((take) => take.mediaId === undo.media_id)?.number ?? null) : null;
  return { takes: takes.length > 1 ? takes : [], undoTo };
}
