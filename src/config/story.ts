import { CAMERA_MOTIONS } from './camera-motions';

/**
 * AI Story (SPEC §1, §2.7, §2.10 topics 22 and 28, §3 Story, §7 story calls): an idea becomes a
 * storyboard of scenes, the storyboard's elements (characters, places, objects) get pictures,
 * each scene gets a picture drawn with its elements, then a video; the scriptboard puts the
 * videos on a timeline with a sound under them and joins them into one film.
 */

/** SPEC §2.7 steps, in order, plus the two states after the last one. */
export const STORY_STEPS = ['idea', 'storyboard', 'elements', 'scenes', 'scriptboard'] as const;
export type StoryStep = (typeof STORY_STEPS)[number];
/** Where a story stands on the server: a step, or done (its final video was made). */
export type StoryStage = StoryStep | 'done';
export const STORY_STAGES: readonly StoryStage[] = [...STORY_STEPS, 'done'];

export const STORY_STEP_LABELS: Record<StoryStep, string> = {
  idea: 'Idea',
  storyboard: 'Storyboard',
  elements: 'Elements',
  scenes: 'Scenes',
  scriptboard: 'Scriptboard',
};

/** The idea, in characters. */
export const STORY_IDEA = { min: 10, max: 2000 } as const;
export const STORY_TITLE_MAX = 80;
/** The film's length (the idea's "duration", SPEC §2.10 topic 23), in seconds. */
export const STORY_DURATIONS = [15, 30, 45, 60] as const;
export const DEFAULT_STORY_DURATION = 30;
/** The film's frame; the storyboard's pictures and videos take it. */
export const STORY_ASPECT_RATIOS = ['16:9', '9:16', '1:1', '4:3', '3:4'] as const;
export type StoryAspectRatio = (typeof STORY_ASPECT_RATIOS)[number];
export const DEFAULT_STORY_ASPECT_RATIO: StoryAspectRatio = '16:9';

/** Looks; each one's prompt is added to every picture of the story. */
export const STORY_STYLES = [
  { value: 'cinematic', label: 'Cinematic', prompt: 'cinematic film still, dramatic light' },
  { value: 'animation', label: '3D animation', prompt: '3D animated film, soft light, rounded shapes' },
  { value: 'anime', label: 'Anime', prompt: 'anime style, clean lines, vivid colours' },
  { value: 'watercolor', label: 'Watercolour', prompt: 'watercolour painting, soft washes' },
  { value: 'noir', label: 'Film noir', prompt: 'black and white film noir, hard shadows' },
  { value: 'documentary', label: 'Documentary', prompt: 'documentary photograph, natural light' },
] as const;
export type StoryStyle = (typeof STORY_STYLES)[number]['value'];
export const DEFAULT_STORY_STYLE: StoryStyle = 'cinematic';

/** Reference pictures a story may start from (image_urls[] of POST story). */
export const STORY_REFERENCE_PICTURES_MAX = 4;

/** A scene's shot: how it is framed, and the camera motion its video takes. */
export const STORY_SHOTS = [
  { value: 'wide', label: 'Wide shot', camera: 'PanRight' },
  { value: 'medium', label: 'Medium shot', camera: 'Auto' },
  { value: 'close-up', label: 'Close-up', camera: 'ZoomIn' },
  { value: 'over-shoulder', label: 'Over the shoulder', camera: 'OrbitRight' },
  { value: 'aerial', label: 'Aerial', camera: 'Aerial' },
  { value: 'tracking', label: 'Tracking shot', camera: 'PanLeft' },
] as const;
export type StoryShot = (typeof STORY_SHOTS)[number]['value'];
export const STORY_SHOT_VALUES = STORY_SHOTS.map((shot) => shot.value) as [StoryShot, ...StoryShot[]];

/** The camera motion (SPEC §9) a shot's video takes, and the prompt text it adds. */
export function shotCamera(shot: string): { value: string; prompt: string } {
  const camera = STORY_SHOTS.find((item) => item.value === shot)?.camera ?? 'Auto';
  const motion = CAMERA_MOTIONS.find((item) => item.value === camera);
  return { value: camera, prompt: motion?.prompt ?? '' };
}

/** Scenes of a storyboard, and one scene's length in seconds (its video's motion_length). */
export const STORY_SCENES = { min: 1, max: 12 } as const;
export const STORY_SCENE_DURATION = { min: 2, max: 10, default: 5 } as const;
export const STORY_SCENE_TEXT_MAX = 600;

export const STORY_ELEMENT_KINDS = [
  { value: 'character', label: 'Character' },
  { value: 'place', label: 'Place' },
  { value: 'object', label: 'Object' },
] as const;
export type StoryElementKind = (typeof STORY_ELEMENT_KINDS)[number]['value'];
export const STORY_ELEMENT_KIND_VALUES = STORY_ELEMENT_KINDS.map((kind) => kind.value) as [StoryElementKind, ...StoryElementKind[]];
export const STORY_ELEMENTS_MAX = 12;
export const STORY_ELEMENT_NAME_MAX = 60;
export const STORY_ELEMENT_DESCRIPTION_MAX = 600;

/** Models: elements and scenes take a `scene-image` model (SPEC §3), videos a motion model with a first frame. */
export const DEFAULT_STORY_IMAGE_MODEL = 'Seedream';
export const DEFAULT_STORY_VIDEO_MODEL = 'PicoMotion';

/** The scriptboard's sound under the film: none, a narration (text-to-speech) or music (text-to-music). */
export const STORY_AUDIO_KINDS = [
  { value: 'none', label: 'No sound' },
  { value: 'speech', label: 'Narration' },
  { value: 'music', label: 'Music' },
] as const;
export type StoryAudioKind = (typeof STORY_AUDIO_KINDS)[number]['value'];
export const STORY_AUDIO_KIND_VALUES = STORY_AUDIO_KINDS.map((kind) => kind.value) as [StoryAudioKind, ...StoryAudioKind[]];
/** The model each sound kind is made with (SPEC §9: both 8 credits). */
export const STORY_AUDIO_MODELS: Record<Exclude<StoryAudioKind, 'none'>, { tool: 'text-to-speech' | 'text-to-music'; option: string }> = {
  speech: { tool: 'text-to-speech', option: 'Text2Speech' },
  music: { tool: 'text-to-music', option: 'Lyria2' },
};
export const STORY_AUDIO_TEXT_MAX = 2000;

/** The media `tool` of each kind of job a story makes (their rows carry media.story_id). */
export const STORY_TOOLS = {
  element: 'story-element',
  scene: 'scene-image',
  video: 'story-video',
  audio: 'story-audio',
  concat: 'story-concat',
} as const;

/**
 * Takes kept per part (an element picture, a scene picture, a scene video): every regeneration
 * adds one; past this many the oldest leaves the list (its job stays until the story is deleted).
 */
export const STORY_TAKES_MAX = 12;

/** The part of the story a generation call works on (PUT story/{id}/cancel's `part`). */
export const STORY_PARTS = ['elements', 'scenes', 'videos', 'audio', 'concat'] as const;
export type StoryPart = (typeof STORY_PARTS)[number];
