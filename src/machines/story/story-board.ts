import { createSelector } from 'reselect';
import {
  STORY_ELEMENT_KINDS,
  STORY_ELEMENTS_MAX,
  STORY_SCENE_DURATION,
  STORY_SCENES,
  STORY_STEPS,
  type StoryElementKind,
  type StoryPart,
  type StoryStep,
} from '@/config/story';
import { canAfford, type CreditCheckUser } from '@/lib/affordability';
import { classifyStatus } from '@/lib/job-status';
import {
  idsNeedingWork,
  narrationAfter,
  storyAudioPrice,
  storyConcatSource,
  storyCost,
  storyPartStates,
  type StoryCost,
  type StoryPartState,
  type StoryPartStates,
} from '@/lib/story';
import { storyboardSchema } from '@/services/schemas/story';
import type { Story, Storyboard, StoryElement, StoryScene } from '@/services/schemas/story';
import type { Media } from '@/services/schemas/media';
import type { StoryWizardEvent } from '@/machines/story/story-wizard.types';

/**
 * Pure rules of a story's storyboard (no state): edits, which steps can be reached, what each
 * part's state is, what making parts costs, and whether the film can be joined. The storyWizard
 * machine and its selectors share them, so a button's reason and the machine's guard agree.
 */

/** Words the machine itself sets (the server's `detail` wins whenever there is one). */
export const STORY_RULE_TEXTS = {
  newElementName: (kind: StoryElementKind): string => `New ${(STORY_ELEMENT_KINDS.find((item) => item.value === kind)?.label ?? kind).toLowerCase()}`,
  newSceneText: 'A new scene.',
  filmFailed: 'Joining the film failed.',
  merged: 'This story was changed in another tab or window meanwhile. Your edits were added to those changes and saved.',
  mergedWithConflicts:
    'This story was changed in another tab or window meanwhile. Your edits were added to those changes and saved; where both changed the same thing, your version was kept.',
  concat: {
    noBoard: 'Write the storyboard first.',
    joining: 'The film is being joined.',
    running: 'Wait for the videos and the sound being made to finish.',
    missingVideos: (numbers: readonly number[]): string => `Make the videos of ${sceneList(numbers)} first.`,
    staleVideos: (numbers: readonly number[]): string =>
      `The videos of ${sceneList(numbers)} are out of date: make them again first.`,
    audio: 'Make the sound first, or choose no sound.',
    staleAudio: 'The sound is out of date: make it again first, or choose no sound.',
  },
} as const;

function sceneList(numbers: readonly number[]): string {
  const names = numbers.map(String);
  if (names.length <= 1) return `scene ${names[0] ?? ''}`.trim();
  return `scenes ${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/** The idea's settings every picture depends on, from the story. */
export const lookOf = (story: Pick<Story, 'style' | 'aspect_ratio'>) => ({ style: story.style, aspect_ratio: story.aspect_ratio });

/** The story's media jobs by id, read the way the app reads a status. */
export const statusOfMedia = (media: Readonly<Record<string, Media>>) => (mediaId: string) => {
  const job = media[mediaId];
  return job ? classifyStatus(job.status) : undefined;
};

/**
 * Every generated part's state, the board being the person's draft; the same object for the same
 * story and board (guards and selectors read the states many times per event; reselect keeps one
 * answer per pair, weakly).
 */
export const partStatesOf: (story: Story, board: Storyboard) => StoryPartStates = createSelector(
  [(story: Story) => story, (_story: Story, board: Storyboard) => board],
  (story, board) => storyPartStates(lookOf(story), board, statusOfMedia(story.media)),
);

/** Which record of part states a paid part reads. */
export const partRecord = (states: StoryPartStates, part: 'elements' | 'scenes' | 'videos'): Record<string, StoryPartState> =>
  part === 'elements' ? states.elements : part === 'scenes' ? states.sceneImages : states.sceneVideos;

/** How many parts of a record are in `state`. */
export const countPartsIn = (record: Record<string, StoryPartState>, state: StoryPartState): number =>
  Object.values(record).filter((value) => value === state).length;

/** Running jobs of each part. */
export function runningCounts(story: Story | null, states: StoryPartStates | null): Record<StoryPart, number> {
  const concat = story?.concat && classifyStatus(story.concat.status) === 'processing' ? 1 : 0;
  if (!states) return { elements: 0, scenes: 0, videos: 0, audio: 0, concat };
  return {
    elements: countPartsIn(states.elements, 'running'),
    scenes: countPartsIn(states.sceneImages, 'running'),
    videos: countPartsIn(states.sceneVideos, 'running'),
    audio: states.audio === 'running' ? 1 : 0,
    concat,
  };
}

/**
 * Any job of the story still running: every job the server named (media map, concat), not only
 * the ones the draft board still names (a removed scene's job still runs until it ends).
 */
export function hasLiveJobs(story: Story | null): boolean {
  if (!story) return false;
  if (story.concat && classifyStatus(story.concat.status) === 'processing') return true;
  return Object.values(story.media).some((media) => classifyStatus(media.status) === 'processing');
}

/** The board passes the API's checks (schema, unique ids, scenes naming existing elements). */
export function boardIsValid(board: Storyboard): boolean {
  if (!storyboardSchema.safeParse(board).success) return false;
  const elementIds = new Set(board.elements.map((element) => element.id));
  if (elementIds.size !== board.elements.length) return false;
  if (new Set(board.scenes.map((scene) => scene.id)).size !== board.scenes.length) return false;
  return board.scenes.every((scene) => scene.element_ids.every((elementId) => elementIds.has(elementId)));
}

const madeOrStale = (state: StoryPartState | undefined): boolean => state === 'ready' || state === 'stale';

/** Which steps the person can go to now: each later step needs the one before it. */
export function reachableSteps(story: Story | null, board: Storyboard | null, states: StoryPartStates | null): Record<StoryStep, boolean> {
  const storyboard = story !== null && board !== null;
  const elements = storyboard && boardIsValid(board);
  const scenes = elements && states !== null && board.elements.every((element) => madeOrStale(states.elements[element.id]));
  const scriptboard = scenes && states !== null && board.scenes.every((scene) => madeOrStale(states.sceneImages[scene.id]));
  return { idea: true, storyboard, elements, scenes, scriptboard };
}

export const nextStep = (step: StoryStep): StoryStep | null => STORY_STEPS[STORY_STEPS.indexOf(step) + 1] ?? null;

/** The ids a "make" button sends: the ones given, else every one missing, failed or stale. */
export function requestIds(states: StoryPartStates, part: 'elements' | 'scenes' | 'videos', ids?: readonly string[]): string[] {
  const record = partRecord(states, part);
  if (ids && ids.length > 0) return [...new Set(ids)].filter((partId) => partId in record);
  return idsNeedingWork(record);
}

/** What making these parts costs and whether the person can pay it (SPEC §6). */
export interface PartCost extends StoryCost {
  ids: string[];
  affordable: boolean;
}

export function partCost(
  board: Storyboard,
  states: StoryPartStates,
  part: 'elements' | 'scenes' | 'videos',
  account: { user: CreditCheckUser | null; credit: number | null },
  ids?: readonly string[],
): PartCost {
  const chosen = requestIds(states, part, ids);
  const cost = storyCost(board, part, chosen.length);
  return { ...cost, ids: chosen, affordable: canAfford({ user: account.user, cost: cost.total, credit: account.credit }) };
}

export function audioCost(board: Storyboard, account: { user: CreditCheckUser | null; credit: number | null }): { total: number; affordable: boolean } {
  const total = storyAudioPrice(board.audio.kind);
  return { total, affordable: canAfford({ user: account.user, cost: total, credit: account.credit }) };
}

/** The playable file of a finished job (its first item's signed URL), or null. */
export function resultUrlOf(media: Media | null | undefined): string | null {
  if (!media || classifyStatus(media.status) !== 'success') return null;
  return media.items[0]?.url ?? media.items.find((item) => item.url)?.url ?? null;
}

/** Why the film cannot be joined now, or null. */
export function concatProblem(story: Story | null, board: Storyboard | null, states: StoryPartStates | null): string | null {
  const texts = STORY_RULE_TEXTS.concat;
  if (!story || !board || !states) return texts.noBoard;
  if (story.concat && classifyStatus(story.concat.status) === 'processing') return texts.joining;
  const numbers = (wanted: (state: StoryPartState | undefined) => boolean) =>
    board.scenes.flatMap((scene, index) => (wanted(states.sceneVideos[scene.id]) ? [index + 1] : []));
  const running = numbers((state) => state === 'running');
  if (running.length > 0 || states.audio === 'running') return texts.running;
  const missing = numbers((state) => state === 'missing' || state === 'failed');
  if (missing.length > 0) return texts.missingVideos(missing);
  const stale = numbers((state) => state === 'stale');
  if (stale.length > 0) return texts.staleVideos(stale);
  if (states.audio === 'stale') return texts.staleAudio;
  if (states.audio !== 'ready') return texts.audio;
  // Every video is ready: its signed file must be there too.
  if (concatInputs(story, board).videoUrls.length !== board.scenes.length) return texts.missingVideos(numbers(() => true));
  return null;
}

/** concat_video_urls[] (the scenes' videos in scene order) and audio_urls[] of the join. */
export function concatInputs(story: Story, board: Storyboard): { videoUrls: string[]; audioUrls: string[] } {
  const videoUrls = board.scenes
    .map((scene) => (scene.video ? resultUrlOf(story.media[scene.video.media_id]) : null))
    .filter((url): url is string => url !== null);
  const track = board.audio.kind === 'none' ? null : board.audio.track;
  const audioUrl = track ? resultUrlOf(story.media[track.media_id]) : null;
  return { videoUrls, audioUrls: audioUrl ? [audioUrl] : [] };
}

/** The fingerprint a join of the board as it stands would carry (compared with story.concat_source). */
export function currentConcatSource(board: Storyboard): string {
  const track = board.audio.kind === 'none' ? null : board.audio.track;
  return storyConcatSource(
    board.scenes.map((scene) => scene.video?.media_id ?? ''),
    track?.media_id ?? null,
  );
}

// ── Edits ───────────────────────────────────────────────────────────────────────────────────

export type BoardEditEvent = Extract<
  StoryWizardEvent,
  {
    type:
      | 'scene.change'
      | 'scene.move'
      | 'scene.add'
      | 'scene.remove'
      | 'element.change'
      | 'element.add'
      | 'element.remove'
      | 'board.settings'
      | 'audio.change';
  }
>;

export const BOARD_EDIT_TYPES = [
  'scene.change',
  'scene.move',
  'scene.add',
  'scene.remove',
  'element.change',
  'element.add',
  'element.remove',
  'board.settings',
  'audio.change',
] as const satisfies readonly BoardEditEvent['type'][];

/** The first `prefix-n` no item has (n from the list's length + 1). */
export const freeId = (prefix: string, taken: readonly { id: string }[]): string => {
  const used = new Set(taken.map((item) => item.id));
  let number = taken.length + 1;
  while (used.has(`${prefix}-${number}`)) number += 1;
  return `${prefix}-${number}`;
};

/** Fields of `changes` that differ from `item`. */
const changed = <T extends object>(item: T, changes: Partial<T>): boolean =>
  Object.entries(changes).some(([key, value]) => value !== undefined && JSON.stringify(item[key as keyof T]) !== JSON.stringify(value));

/** A list with one item moved by `offset` places (clamped); the same list when it cannot move. */
export function moveItem<T extends { id: string }>(items: readonly T[], id: string, offset: number): T[] {
  const from = items.findIndex((item) => item.id === id);
  const to = Math.min(Math.max(from + offset, 0), items.length - 1);
  if (from < 0 || to === from) return items as T[];
  const moved = [...items];
  const [item] = moved.splice(from, 1);
  if (item) moved.splice(to, 0, item);
  return moved;
}

const defined = <T extends object>(changes: T): Partial<T> =>
  Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)) as Partial<T>;

/**
 * The board after one edit; the same board when the edit changes nothing (or is not allowed:
 * the last scene, more scenes or elements than allowed, an unknown id). Generated parts are
 * never removed by an edit: they become stale (derived), except with the scene or element removed.
 */
export function applyBoardEdit(board: Storyboard, event: BoardEditEvent): Storyboard {
  const next = editedBoard(board, event);
  if (next === board) return board;
  // The narration reads the scenes: it takes their new words, so its sound goes stale with them.
  const narration = narrationAfter(board, next);
  return narration === next.audio.text ? next : { ...next, audio: { ...next.audio, text: narration } };
}

function editedBoard(board: Storyboard, event: BoardEditEvent): Storyboard {
  switch (event.type) {
    case 'scene.change': {
      const scene = board.scenes.find((item) => item.id === event.sceneId);
      if (!scene || !changed(scene, event.changes)) return board;
      const changes = defined(event.changes);
      if (changes.element_ids) changes.element_ids = [...new Set(changes.element_ids)];
      return { ...board, scenes: board.scenes.map((item) => (item.id === event.sceneId ? { ...item, ...changes } : item)) };
    }
    case 'scene.move': {
      const scenes = moveItem(board.scenes, event.sceneId, event.offset);
      return scenes === board.scenes ? board : { ...board, scenes };
    }
    case 'scene.add': {
      if (board.scenes.length >= STORY_SCENES.max) return board;
      const scene: StoryScene = {
        id: freeId('scene', board.scenes),
        text: STORY_RULE_TEXTS.newSceneText,
        shot: 'medium',
        duration: STORY_SCENE_DURATION.default,
        element_ids: [],
        image: null,
        video: null,
      };
      const after = event.afterId === undefined ? -1 : board.scenes.findIndex((item) => item.id === event.afterId);
      const at = after < 0 ? board.scenes.length : after + 1;
      return { ...board, scenes: [...board.scenes.slice(0, at), scene, ...board.scenes.slice(at)] };
    }
    case 'scene.remove': {
      if (board.scenes.length <= STORY_SCENES.min || !board.scenes.some((item) => item.id === event.sceneId)) return board;
      return { ...board, scenes: board.scenes.filter((item) => item.id !== event.sceneId) };
    }
    case 'element.change': {
      const element = board.elements.find((item) => item.id === event.elementId);
      if (!element || !changed(element, event.changes)) return board;
      const changes = defined(event.changes);
      return { ...board, elements: board.elements.map((item) => (item.id === event.elementId ? { ...item, ...changes } : item)) };
    }
    case 'element.add': {
      if (board.elements.length >= STORY_ELEMENTS_MAX) return board;
      const element: StoryElement = {
        id: freeId('el', board.elements),
        kind: event.kind,
        name: STORY_RULE_TEXTS.newElementName(event.kind),
        description: '',
        image: null,
      };
      return { ...board, elements: [...board.elements, element] };
    }
    case 'element.remove': {
      if (!board.elements.some((item) => item.id === event.elementId)) return board;
      return {
        ...board,
        elements: board.elements.filter((item) => item.id !== event.elementId),
        scenes: board.scenes.map((scene) =>
          scene.element_ids.includes(event.elementId)
            ? { ...scene, element_ids: scene.element_ids.filter((elementId) => elementId !== event.elementId) }
            : scene,
        ),
      };
    }
    case 'board.settings':
      return changed(board, event.changes) ? { ...board, ...defined(event.changes) } : board;
    case 'audio.change':
      return changed(board.audio, event.changes) ? { ...board, audio: { ...board.audio, ...defined(event.changes) } } : board;
  }
}
