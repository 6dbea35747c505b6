import { idsNeedingWork, storyAudioPrice, storyPartPrice, storyPartStates, type StatusOf, type StoryLook } from './story';

/** A storyboard as storyPartStates reads it (lib never imports services). */
type Storyboard = Parameters<typeof storyPartStates>[1];

/**
 * One quote for a whole film (issue 21 item 6): what everything the story still has to make costs
 * — every part missing, failed or stale, at the prices its step charges (storyPartPrice,
 * storyAudioPrice: no second price table). Running and ready parts are paid for already; joining
 * the film is free. The server holds this total (POST story/{id}/hold); the wizard shows it.
 */

export type StoryQuotePart = 'elements' | 'scenes' | 'videos' | 'audio';

export interface StoryQuoteLine {
  part: StoryQuotePart;
  count: number;
  each: number;
  total: number;
}

export interface StoryQuote {
  /** Only the parts with something to make, in the order the steps make them. */
  lines: StoryQuoteLine[];
  total: number;
}

export function storyQuote(look: StoryLook, board: Storyboard, statusOf: StatusOf): StoryQuote {
  const states = storyPartStates(look, board, statusOf);
  const line = (part: StoryQuotePart, count: number, each: number): StoryQuoteLine => ({ part, count, each, total: count * each });
  const lines = [
    line('elements', idsNeedingWork(states.elements).length, storyPartPrice(board, 'elements')),
    line('scenes', idsNeedingWork(states.sceneImages).length, storyPartPrice(board, 'scenes')),
    line('videos', idsNeedingWork(states.sceneVideos).length, storyPartPrice(board, 'videos')),
    line('audio', idsNeedingWork({ audio: states.audio }).length, storyAudioPrice(board.audio.kind)),
  ].filter((entry) => entry.count > 0);
  return { lines, total: lines.reduce((sum, entry) => sum + entry.total, 0) };
}
