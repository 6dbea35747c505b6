import type { MediaKind } from '../../../src/config/enums.ts';
import { shotCamera, STORY_AUDIO_MODELS, STORY_TOOLS, type StoryPart } from '../../../src/config/story.ts';
import { PROMPT_STRENGTH } from '../../../src/config/video-creation.ts';
import {
  audioSource,
  elementPrompt,
  elementSource,
  idsNeedingWork,
  sceneImageSource,
  scenePrompt,
  sceneVideoPrompt,
  sceneVideoSource,
  storyAudioPrice,
  storyImageModel,
  storyPartPrice,
  storyPartStates,
  storyVideoModel,
  type StoryLook,
} from '../../../src/lib/story.ts';
import { placeTake } from '../../../src/lib/story-takes.ts';
import type { StoryAsset, Storyboard } from '../../../src/services/schemas/story.ts';
import { newPublicId, type StoredImageRef, type StoredInput } from '../db/media.ts';
import type { StoryMediaInfo, StoryRow } from '../db/stories.ts';
import { bad, nameList, type CheckedBoard } from '../routes/story-input.ts';
import type { PaidJob } from './charge.ts';

/**
 * AI Story planning (SPEC §7 story/{id}/elements, scenes, videos, audio) as pure functions: from a
 * story, its checked storyboard and the ids the person asked for, the jobs one call makes — each
 * job's row, price, ledger reason, and where its result goes in the board. No database, no
 * request: the route checks the board, plans, and hands the jobs to chargeJobs.
 */

/** What the story's jobs record as their endpoint. */
export const STORY_ENDPOINTS: Readonly<Record<StoryPart, string>> = {
  elements: 'story/elements',
  scenes: 'story/scenes',
  videos: 'story/videos',
  audio: 'story/audio',
  concat: 'story/concat',
};
const ENDPOINTS = STORY_ENDPOINTS;

/** What planning reads of a story. */
export type StoryPlanSubject = Pick<StoryRow, 'id' | 'style' | 'aspect_ratio' | 'image_urls'>;

const lookOf = (story: Pick<StoryRow, 'style' | 'aspect_ratio'>): StoryLook => ({ style: story.style, aspect_ratio: story.aspect_ratio });

/** A job a generation call is about to create: its row, its price, and where its result goes in the board. */
export interface PlannedJob {
  id: string;
  kind: MediaKind;
  tool: string;
  endpoint: string;
  option: string;
  args: Record<string, unknown>;
  inputs: StoredInput[];
  imageUrls: StoredImageRef[];
  version?: string;
  price: number;
  reason: string;
  /** The board with this job's result named in it (a picture or video as the part's new active take). */
  place: (board: Storyboard, asset: StoryAsset) => Storyboard;
  /** What the board names now where this job's result goes (a live job there refuses the call). */
  current: (board: Storyboard) => StoryAsset | null | undefined;
  source: string;
}

/** The first result file of a succeeded job (what the next step draws from). */
function resultFile(info: StoryMediaInfo | undefined): string | null {
  if (!info || !info.status.startsWith('success')) return null;
  return info.items[0]?.file_id ?? null;
}

/** The ids a call makes: the ones sent (each must be one of `known`), else every one needing work. */
export function chosenIds(sent: readonly string[] | undefined, known: readonly string[], needing: string[], what: string): string[] {
  if (sent === undefined || sent.length === 0) {
    if (needing.length === 0) throw bad(`Nothing to make: every ${what} is made and up to date.`);
    return needing;
  }
  const unknown = sent.find((id) => !known.includes(id));
  if (unknown !== undefined) throw bad(`ids: "${unknown}" is not in this storyboard.`);
  return known.filter((id) => sent.includes(id));
}

/** One picture job per element chosen (each `image` job names the first character's reference picture, if the story has one). */
export function planElements(story: StoryPlanSubject, { board, statusOf }: CheckedBoard, sent: readonly string[] | undefined): PlannedJob[] {
  const look = lookOf(story);
  const states = storyPartStates(look, board, statusOf);
  const ids = chosenIds(sent, board.elements.map((element) => element.id), idsNeedingWork(states.elements), 'element picture');
  const price = storyPartPrice(board, 'elements');
  const model = storyImageModel(board.image_model)?.label ?? board.image_model;
  const firstCharacter = board.elements.find((element) => element.kind === 'character')?.id;
  const reference = story.image_urls[0];
  return board.elements
    .filter((element) => ids.includes(element.id))
    .map((element) => {
      const ref = element.id === firstCharacter && reference && 'file_id' in reference ? reference : null;
      return {
        id: newPublicId(),
        kind: 'image' as const,
        tool: STORY_TOOLS.element,
        endpoint: ENDPOINTS.elements,
        option: board.image_model,
        args: {
          prompt: elementPrompt(look, element),
          aspect_ratio: element.kind === 'place' ? story.aspect_ratio : '1:1',
          story_part: 'elements',
          element_id: element.id,
        },
        inputs: ref ? [{ field: 'image_urls', file_id: ref.file_id }] : [],
        imageUrls: ref ? [ref] : [],
        price,
        reason: `AI Story · picture of ${element.name} · ${model}`,
        source: elementSource(look, board, element),
        place: (current, asset) => placeTake(current, 'elements', element.id, asset),
        current: (current) => current.elements.find((item) => item.id === element.id)?.image,
      };
    });
}

/** One picture job per scene chosen, drawn from its elements' pictures (400 when one is not made yet). */
export function planScenes(story: StoryPlanSubject, { board, statusOf, media }: CheckedBoard, sent: readonly string[] | undefined): PlannedJob[] {
  const look = lookOf(story);
  const states = storyPartStates(look, board, statusOf);
  const ids = chosenIds(sent, board.scenes.map((scene) => scene.id), idsNeedingWork(states.sceneImages), 'scene picture');
  const scenes = board.scenes.filter((scene) => ids.includes(scene.id));
  const elementPicture = (elementId: string): string | null => {
    const image = board.elements.find((element) => element.id === elementId)?.image;
    return image ? resultFile(media.get(image.media_id)) : null;
  };
  const missing = board.elements.filter((element) => scenes.some((scene) => scene.element_ids.includes(element.id)) && !elementPicture(element.id));
  if (missing.length > 0) throw bad(`Make the pictures of ${nameList(missing.map((element) => element.name))} first.`);
  const price = storyPartPrice(board, 'scenes');
  const model = storyImageModel(board.image_model)?.label ?? board.image_model;
  return scenes.map((scene) => {
    const inputs = scene.element_ids.map((elementId) => ({ field: 'image_urls', file_id: elementPicture(elementId) ?? '' }));
    const number = board.scenes.indexOf(scene) + 1;
    return {
      id: newPublicId(),
      kind: 'image' as const,
      tool: STORY_TOOLS.scene,
      endpoint: ENDPOINTS.scenes,
      option: board.image_model,
      args: {
        prompt: scenePrompt(look, scene),
        aspect_ratio: story.aspect_ratio,
        shot: scene.shot,
        // Parallel to the inputs: a place's picture becomes the scene's backdrop, the others its figures.
        element_kinds: scene.element_ids.map((elementId) => board.elements.find((element) => element.id === elementId)?.kind ?? 'character'),
        story_part: 'scenes',
        scene_id: scene.id,
      },
      inputs,
      imageUrls: inputs.map((input) => ({ file_id: input.file_id })),
      price,
      reason: `AI Story · picture of scene ${number} · ${model}`,
      source: sceneImageSource(look, board, scene),
      place: (current, asset) => placeTake(current, 'scenes', scene.id, asset),
      current: (current) => current.scenes.find((item) => item.id === scene.id)?.image,
    };
  });
}

/** One video job per scene chosen, moving its picture (400 when the picture is not made yet). */
export function planVideos(story: StoryPlanSubject, { board, statusOf, media }: CheckedBoard, sent: readonly string[] | undefined): PlannedJob[] {
  const look = lookOf(story);
  const states = storyPartStates(look, board, statusOf);
  const ids = chosenIds(sent, board.scenes.map((scene) => scene.id), idsNeedingWork(states.sceneVideos), 'scene video');
  const scenes = board.scenes.filter((scene) => ids.includes(scene.id));
  const pictureOf = (scene: (typeof scenes)[number]): string | null => (scene.image ? resultFile(media.get(scene.image.media_id)) : null);
  const missing = scenes.filter((scene) => !pictureOf(scene)).map((scene) => String(board.scenes.indexOf(scene) + 1));
  if (missing.length > 0) throw bad(`Make the ${missing.length === 1 ? 'picture of scene' : 'pictures of scenes'} ${nameList(missing)} first.`);
  const price = storyPartPrice(board, 'videos');
  const model = storyVideoModel(board.video_model)?.label ?? board.video_model;
  return scenes.map((scene) => {
    const picture = pictureOf(scene) ?? '';
    const prompt = sceneVideoPrompt(scene);
    const number = board.scenes.indexOf(scene) + 1;
    return {
      id: newPublicId(),
      kind: 'video' as const,
      tool: STORY_TOOLS.video,
      endpoint: ENDPOINTS.videos,
      option: board.video_model,
      version: '3',
      args: {
        option: board.video_model,
        creation_type: 'ai-motion',
        motion_mode: 'image',
        pose_preset: [
          {
            motion_type: shotCamera(scene.shot).value,
            prompt,
            quantity: 1,
            motion_amount: 5,
            motion_length: scene.duration,
            loop: 0,
            model: board.video_model,
            camera_path: null,
          },
        ],
        prompt,
        prompt_strength: PROMPT_STRENGTH.default,
        aspect_ratio: story.aspect_ratio,
        story_part: 'videos',
        scene_id: scene.id,
      },
      inputs: [{ field: 'image_urls', file_id: picture }],
      imageUrls: [{ file_id: picture }],
      price,
      reason: `AI Story · video of scene ${number} · ${model}`,
      source: sceneVideoSource(board, scene),
      place: (current, asset) => placeTake(current, 'videos', scene.id, asset),
      current: (current) => current.scenes.find((item) => item.id === scene.id)?.video,
    };
  });
}

/** The one sound job: the narration spoken or the music described (400 when there is none to make). */
export function planAudio({ board }: CheckedBoard): PlannedJob[] {
  const { audio } = board;
  if (audio.kind === 'none') throw bad('The storyboard has no sound to make: choose a narration or music first.');
  if (audio.text.trim() === '') throw bad(audio.kind === 'speech' ? 'Write the narration first.' : 'Describe the music first.');
  const model = STORY_AUDIO_MODELS[audio.kind];
  return [
    {
      id: newPublicId(),
      kind: 'audio',
      tool: STORY_TOOLS.audio,
      endpoint: ENDPOINTS.audio,
      option: model.option,
      args: {
        prompt: audio.text.trim(),
        ...(audio.kind === 'speech' ? { voice: audio.voice } : {}),
        audio_kind: audio.kind,
        duration: board.scenes.reduce((sum, scene) => sum + scene.duration, 0),
        story_part: 'audio',
      },
      inputs: [],
      imageUrls: [],
      price: storyAudioPrice(audio.kind),
      reason: `AI Story · ${audio.kind === 'speech' ? 'narration' : 'music'} · ${model.option}`,
      source: audioSource(audio),
      place: (current, asset) => ({ ...current, audio: { ...current.audio, track: asset } }),
      current: (current) => current.audio.track,
    },
  ];
}

export type StoryPlanner = (story: StoryPlanSubject, checked: CheckedBoard, sent: readonly string[] | undefined) => PlannedJob[];

/** The planner of each paid part. */
export const STORY_PLANNERS: Readonly<Record<'elements' | 'scenes' | 'videos' | 'audio', StoryPlanner>> = {
  elements: planElements,
  scenes: planScenes,
  videos: planVideos,
  audio: (_story, checked) => planAudio(checked),
};

/** The board with every planned job's result named in it (each as a new asset of its source). */
export const placeJobs = (board: Storyboard, jobs: readonly PlannedJob[]): Storyboard =>
  jobs.reduce((placed, job) => job.place(placed, { media_id: job.id, source: job.source }), board);

/** The media ids the board names now where these jobs' results go (a live one there refuses the call). */
export const jobTargets = (board: Storyboard, jobs: readonly PlannedJob[]): string[] =>
  jobs.map((job) => job.current(board)?.media_id).filter((id): id is string => id !== undefined);

/** A planned job as chargeJobs takes it: one queued media row of this story. */
export const paidStoryJob = (story: Pick<StoryRow, 'id'>, job: PlannedJob): PaidJob => ({
  media: {
    id: job.id,
    kind: job.kind,
    tool: job.tool,
    endpoint: job.endpoint,
    option: job.option,
    args: job.args,
    imageUrls: job.imageUrls,
    inputs: job.inputs,
    items: [{ status: 'new' }],
    version: job.version,
    storyId: story.id,
  },
  price: job.price,
  reason: job.reason,
});
