import { STORY_IDEA, STORY_STAGES, STORY_STEPS, type StoryStage, type StoryStep } from '@/config/story';
import { classifyStatus } from '@/lib/job-status';
import { statusOf } from '@/services/api-error';
import type { SaveStoryFields } from '@/services/story';
import type { Story } from '@/services/schemas/story';
import { boardIsValid, concatProblem, partRecord, partStatesOf, reachableSteps } from '@/machines/story/story-board';
import type { IdeaFields, StoryWizardContext } from '@/machines/story/story-wizard.types';

/**
 * The storyWizard machine's pure reading of its context (no state, no timers): what is dirty,
 * what a save sends, where a loaded story resumes, whether parts can be requested. Its guards,
 * actions and selectors share them.
 */

/** The server refused a board edited from an older revision (another tab or device saved one since). */
export const isStaleBoard = (error: unknown): boolean => statusOf(error) === 412;

export const stageIndex = (stage: StoryStage): number => STORY_STAGES.indexOf(stage);

/** Derived part states of the board as it stands (null before a story exists). */
export const statesOf = (context: Pick<StoryWizardContext, 'story' | 'board'>) =>
  context.story && context.board ? partStatesOf(context.story, context.board) : null;

export const reachableOf = (context: Pick<StoryWizardContext, 'story' | 'board'>) =>
  reachableSteps(context.story, context.board, statesOf(context));

export const concatProblemOf = (context: Pick<StoryWizardContext, 'story' | 'board'>): string | null =>
  concatProblem(context.story, context.board, statesOf(context));

const boardDirty = (context: StoryWizardContext): boolean => context.boardVersion !== context.savedBoardVersion;
export const isDirty = (context: StoryWizardContext): boolean => boardDirty(context) || context.step !== context.savedStep;

/** What a save sends now: the board when it changed and passes the API's checks, the step when it changed. */
export function saveFieldsOf(context: StoryWizardContext): SaveStoryFields | null {
  const fields: SaveStoryFields = {};
  if (context.board && boardDirty(context) && boardIsValid(context.board)) {
    fields.storyboard = context.board;
    if (context.revision) fields.revision = context.revision;
  }
  if (context.step !== context.savedStep) fields.step = context.step;
  return Object.keys(fields).length > 0 ? fields : null;
}

export type SaveState = 'saved' | 'saving' | 'unsaved' | 'failed';

export function saveStateOf(context: StoryWizardContext): SaveState {
  if (context.saving) return 'saving';
  if (!isDirty(context)) return 'saved';
  return context.saveErrors > 0 ? 'failed' : 'unsaved';
}

/** Where a loaded story resumes: a live join, the finished film, else the step it records (or the last one reachable before it). */
export function resumeStageOf(story: Story): StoryStep | 'concatenating' | 'done' {
  if (story.concat && classifyStatus(story.concat.status) === 'processing') return 'concatenating';
  if (story.step === 'done') return 'done';
  const reachable = reachableSteps(story, story.storyboard, partStatesOf(story, story.storyboard));
  const recorded = STORY_STEPS.indexOf(story.step);
  return [...STORY_STEPS.slice(0, recorded + 1)].reverse().find((step) => reachable[step]) ?? 'idea';
}

/** Whether these parts cannot be made yet (nothing chosen, an invalid board, one running, their inputs not made). */
export function requestProblem(context: StoryWizardContext, part: 'elements' | 'scenes' | 'videos', ids: readonly string[]): boolean {
  const states = statesOf(context);
  const board = context.board;
  if (!states || !board || ids.length === 0) return true;
  if (!boardIsValid(board)) return true;
  const record = partRecord(states, part);
  if (ids.some((partId) => record[partId] === 'running')) return true;
  const made = (state: string | undefined) => state === 'ready' || state === 'stale';
  if (part === 'scenes') {
    return board.scenes
      .filter((scene) => ids.includes(scene.id))
      .some((scene) => scene.element_ids.some((elementId) => !made(states.elements[elementId])));
  }
  if (part === 'videos') return ids.some((sceneId) => !made(states.sceneImages[sceneId]));
  return false;
}

export const ideaIsValid = (fields: IdeaFields): boolean => {
  const length = fields.idea.trim().length;
  return length >= STORY_IDEA.min && length <= STORY_IDEA.max;
};
