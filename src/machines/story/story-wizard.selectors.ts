import { createSelector } from 'reselect';
import type { SnapshotFrom } from 'xstate';
import type { StoryPart, StoryStep } from '@/config/story';
import { classifyStatus } from '@/lib/job-status';
import type { StoryCost, StoryPartStates } from '@/lib/story';
import {
  audioCost,
  concatProblem,
  countPartsIn,
  currentConcatSource,
  partCost,
  partRecord,
  reachableSteps,
  resultUrlOf,
  runningCounts,
} from '@/machines/story/story-board';
import type { Media, Storyboard, StoryWizardContext, storyWizardMachine } from '@/machines/story/story-wizard.machine';
import { saveStateOf, statesOf, type SaveState } from '@/machines/story/story-wizard.rules';
import { exportProblem } from '@/machines/story/story-export';
import { partTakesOf, type PartTakesView } from '@/machines/story/story-takes';
import type { TakePart } from '@/lib/story-takes';

export type { PartTakesView, TakeView } from '@/machines/story/story-takes';

export type StoryWizardSnapshot = SnapshotFrom<typeof storyWizardMachine>;
export type { SaveState } from '@/machines/story/story-wizard.rules';

/** Where the wizard is: a step, or loading / not found / failed, or joining / done. */
export type WizardState = 'loading' | 'loadFailed' | 'notFound' | StoryStep | 'concatenating' | 'done';

/** What the page is busy with now (its buttons wait). */
export type StoryBusy = null | 'creating' | 'saving-idea' | 'rewriting' | 'generating' | 'cancelling' | 'choosing-take' | 'joining';

export interface StoryView {
  id: string;
  /** The storyboard's title (the draft's). */
  title: string;
  idea: string;
  duration: number;
  aspectRatio: string;
  style: string;
  /** Signed URLs of the reference pictures the story started from. */
  imageUrls: string[];
  /** The storyboard being edited (the person's draft). */
  board: Storyboard;
  /** Every generated part's state, staleness derived from the draft. */
  states: StoryPartStates;
  reachable: Record<StoryStep, boolean>;
  saveState: SaveState;
  /** Why the last save failed (shown with "Not saved — retrying"). */
  saveError: string | null;
  busy: StoryBusy;
  generatingPart: StoryPart | null;
  running: Record<StoryPart, number>;
  /** Polling waits while the page is hidden. */
  paused: boolean;
  error: string | null;
  /** Said without being a failure: the edits were merged with another tab's. */
  notice: string | null;
  credit: number | null;
  creditLoading: boolean;
}

/** One generated part's job as a card shows it. */
export interface PartView {
  status: 'queued' | 'running' | 'done' | 'failed';
  /** 0…100. */
  progress: number;
  url: string | null;
  thumbnailUrl: string | null;
  error: string | null;
}

export interface FinalFilmView {
  state: 'none' | 'running' | 'ready' | 'failed' | 'stale';
  url: string | null;
  posterUrl: string | null;
  progress: number;
  error: string | null;
}

export type PartCostView = StoryCost & { ids: string[]; affordable: boolean };

const topState = (snapshot: StoryWizardSnapshot): string =>
  typeof snapshot.value === 'string' ? snapshot.value : (Object.keys(snapshot.value)[0] ?? 'loading');

export const selectWizardState = (snapshot: StoryWizardSnapshot): WizardState => topState(snapshot) as WizardState;

/** The stepper's active step (joining and the finished film belong to the scriptboard). */
export function selectActiveStep(snapshot: StoryWizardSnapshot): StoryStep {
  const state = selectWizardState(snapshot);
  if (state === 'concatenating' || state === 'done') return 'scriptboard';
  if (state === 'loading' || state === 'loadFailed' || state === 'notFound') return 'idea';
  return state;
}

export function selectBusy(snapshot: StoryWizardSnapshot): StoryBusy {
  const state = selectWizardState(snapshot);
  if (state === 'idea') {
    if (snapshot.matches({ idea: 'creating' })) return 'creating';
    if (snapshot.matches({ idea: 'savingIdea' })) return 'saving-idea';
    if (snapshot.matches({ idea: 'rewriting' })) return 'rewriting';
    return null;
  }
  if (state === 'concatenating') return snapshot.matches({ concatenating: 'cancelling' }) ? 'cancelling' : 'joining';
  if (state === 'storyboard' || state === 'elements' || state === 'scenes' || state === 'scriptboard' || state === 'done') {
    const sub = (snapshot.value as Record<string, unknown>)[state];
    if (sub === 'rewriting' || (typeof sub === 'object' && sub !== null && 'rewriting' in sub)) return 'rewriting';
    if (typeof sub === 'object' && sub !== null && 'choosingTake' in sub) return 'choosing-take';
    if (sub === 'generating') return 'generating';
    if (sub === 'cancelling') return 'cancelling';
  }
  return null;
}

const account = (context: StoryWizardContext) => ({ user: context.user, credit: context.credit });

/** Everything the wizard's steps show about the story; null before a story exists (a new one at the idea step). The same view for the same snapshot. */
export const selectStoryView: (snapshot: StoryWizardSnapshot) => StoryView | null = createSelector([(snapshot: StoryWizardSnapshot) => snapshot], (snapshot) => {
  const { context } = snapshot;
  const { story, board } = context;
  if (!story || !board) return null;
  const states = statesOf(context) as StoryPartStates;
  const busy = selectBusy(snapshot);
  const running = runningCounts(story, states);
  return {
    id: story.id,
    title: board.title,
    idea: story.idea,
    duration: story.duration,
    aspectRatio: story.aspect_ratio,
    style: story.style,
    imageUrls: story.image_urls,
    board,
    states,
    reachable: reachableSteps(story, board, states),
    saveState: saveStateOf(context),
    saveError: context.saveError,
    busy,
    generatingPart: busy === 'generating' ? (context.request?.part ?? null) : busy === 'joining' ? 'concat' : null,
    running,
    paused: context.hidden && Object.values(running).some((count) => count > 0),
    error: context.error,
    notice: context.notice,
    credit: context.credit,
    creditLoading: context.creditLoading,
  };
});

/**
 * Narrow views of the story for the parts of the page that show little of it: each changes only
 * when what it shows changes, so a key typed in a scene redraws the scene and not the page around
 * it (issue 19 item 4). Derived from the memoised view, so the work is done once per snapshot.
 */
export const selectStoryTitle = (snapshot: StoryWizardSnapshot): string | null => {
  const view = selectStoryView(snapshot);
  return view?.board.title || view?.title || null;
};

export const selectStoryError = (snapshot: StoryWizardSnapshot): string | null => selectStoryView(snapshot)?.error ?? null;
export const selectStoryNotice = (snapshot: StoryWizardSnapshot): string | null => selectStoryView(snapshot)?.notice ?? null;

export const selectSaveState = (snapshot: StoryWizardSnapshot): StoryView['saveState'] | null => selectStoryView(snapshot)?.saveState ?? null;

/** Whether the story can reach each step (a flat record: compare it with shallowEqual). */
export const selectReachableSteps = (snapshot: StoryWizardSnapshot): StoryView['reachable'] | null =>
  selectStoryView(snapshot)?.reachable ?? null;

export interface StepStatus {
  running: number;
  stale: number;
}

const NO_STATUS: StepStatus = { running: 0, stale: 0 };

/** What each step's badge says: how many of its parts are being made and how many changed since. */
export function selectStepStatuses(snapshot: StoryWizardSnapshot): Record<StoryStep, StepStatus> {
  const view = selectStoryView(snapshot);
  if (!view) return { idea: NO_STATUS, storyboard: NO_STATUS, elements: NO_STATUS, scenes: NO_STATUS, scriptboard: NO_STATUS };
  const { states, running } = view;
  return {
    idea: NO_STATUS,
    storyboard: NO_STATUS,
    elements: { running: running.elements, stale: countPartsIn(states.elements, 'stale') },
    scenes: { running: running.scenes, stale: countPartsIn(states.sceneImages, 'stale') },
    scriptboard: {
      running: running.videos + running.audio + running.concat,
      stale: countPartsIn(states.sceneVideos, 'stale') + (states.audio === 'stale' ? 1 : 0),
    },
  };
}

/** Equality for `selectStepStatuses`: the same figures on every step. */
export const sameStepStatuses = (a: Record<StoryStep, StepStatus>, b: Record<StoryStep, StepStatus>): boolean =>
  (Object.keys(a) as StoryStep[]).every((step) => a[step].running === b[step].running && a[step].stale === b[step].stale);

/** What making these parts costs (ids given, else every one missing, failed or stale) and whether it can be paid. */
export function selectPartCost(
  snapshot: StoryWizardSnapshot,
  part: 'elements' | 'scenes' | 'videos',
  ids?: readonly string[],
): PartCostView {
  const { context } = snapshot;
  const states = statesOf(context);
  if (!context.board || !states) return { count: 0, each: 0, total: 0, ids: [], affordable: false };
  return partCost(context.board, states, part, account(context), ids);
}

/** What making the sound costs and whether it can be paid. */
export function selectAudioCost(snapshot: StoryWizardSnapshot): { total: number; affordable: boolean } {
  const { context } = snapshot;
  if (!context.board) return { total: 0, affordable: false };
  return audioCost(context.board, account(context));
}

function partStatusOf(media: Media): PartView['status'] {
  const status = classifyStatus(media.status);
  if (status === 'success') return 'done';
  if (status === 'processing') return media.status.startsWith('queue') ? 'queued' : 'running';
  return 'failed';
}

/** A generated part's job (element or scene picture, scene video, sound), by its media id; null when not known. */
export function selectPartView(snapshot: StoryWizardSnapshot, mediaId: string | null | undefined): PartView | null {
  if (!mediaId) return null;
  const media = snapshot.context.story?.media[mediaId];
  if (!media) return null;
  const url = resultUrlOf(media);
  return {
    status: partStatusOf(media),
    progress: media.progress,
    url,
    thumbnailUrl: url ? (media.items[0]?.thumbnail_url ?? null) : null,
    error: media.error,
  };
}

/** The joined film: none yet, being joined, ready, failed, or stale (joined from videos or a sound changed since). */
export function selectFinalFilm(snapshot: StoryWizardSnapshot): FinalFilmView {
  const { context } = snapshot;
  const concat = context.story?.concat ?? null;
  if (!concat || !context.board) return { state: 'none', url: null, posterUrl: null, progress: 0, error: null };
  const status = classifyStatus(concat.status);
  const url = resultUrlOf(concat);
  const posterUrl = url ? (concat.items[0]?.thumbnail_url ?? null) : null;
  if (status === 'processing') return { state: 'running', url: null, posterUrl: null, progress: concat.progress, error: null };
  if (status !== 'success') return { state: 'failed', url: null, posterUrl: null, progress: concat.progress, error: concat.error };
  const states = statesOf(context);
  const upToDate =
    context.story?.concat_source === currentConcatSource(context.board) &&
    !!states &&
    Object.values(states.sceneVideos).every((state) => state === 'ready') &&
    states.audio === 'ready';
  return { state: upToDate ? 'ready' : 'stale', url, posterUrl, progress: 100, error: null };
}

/** Why the film cannot be joined now, or null when "Make the film" can be pressed. */
export function selectConcatProblem(snapshot: StoryWizardSnapshot): string | null {
  const { context } = snapshot;
  return concatProblem(context.story, context.board, statesOf(context));
}

/**
 * Whether one part can be made again now (its card's "Regenerate"): the machine takes the click
 * (its inputs are made, it is not running), it can be paid for, and nothing else is on its way.
 */
export function selectCanRegenerate(snapshot: StoryWizardSnapshot, part: 'elements' | 'scenes' | 'videos', id: string): boolean {
  if (selectBusy(snapshot) !== null) return false;
  const states = statesOf(snapshot.context);
  if (!states || partRecord(states, part)[id] === 'running') return false;
  return snapshot.can({ type: 'part.generate', part, ids: [id] }) && selectPartCost(snapshot, part, [id]).affordable;
}

const NO_TAKES: PartTakesView = { takes: [], undoTo: null };

/**
 * A part's takes as its card shows them, and whether each can be picked and Undo pressed now (the
 * machine takes the event: the take has its result, the part is not being made, nothing else is
 * on its way).
 */
export function selectPartTakes(snapshot: StoryWizardSnapshot, part: TakePart, partId: string): PartTakesView & { canPick: string[]; canUndo: boolean } {
  const { story, board } = snapshot.context;
  const view = story && board ? partTakesOf(story, board, part, partId) : NO_TAKES;
  const idle = selectBusy(snapshot) === null;
  return {
    ...view,
    canPick: idle ? view.takes.filter((take) => snapshot.can({ type: 'take.select', part, partId, mediaId: take.mediaId })).map((take) => take.mediaId) : [],
    canUndo: idle && view.undoTo !== null && snapshot.can({ type: 'take.undo', part, partId }),
  };
}

/** Export for editing: why the film cannot be exported yet (its parts), or null; and whether it has a narration (subtitles). */
interface ExportOffer {
  problem: string | null;
  hasNarration: boolean;
}

export function selectExportOffer(snapshot: StoryWizardSnapshot): ExportOffer {
  const { context } = snapshot;
  return {
    problem: exportProblem(context.story, context.board, statesOf(context)),
    hasNarration: context.board?.audio.kind === 'speech',
  };
}

/** The zip's child (storyExport), to read its progress. */
export const selectExportRef = (snapshot: StoryWizardSnapshot) => snapshot.children.storyExport;
