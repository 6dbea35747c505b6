import { ASSET_TOOLS, IMAGE_MODEL_OPTIONS, optionsForTool, type ModelOption } from '../config/asset-tools';
import { MOTION_MODELS, type VideoMotionModel } from '../config/motion-models';
import { STORY_AUDIO_MODELS, STORY_AUDIO_TEXT_MAX, STORY_STYLES, shotCamera, type StoryAudioKind } from '../config/story';

/**
 * Shared by the web app and the local server (relative imports): what each generated part of a
 * story was made from (its fingerprint), which parts are stale, which need making, and what
 * making them costs. The server stores a fingerprint with each job it starts; the web app
 * compares it with the fingerprint of the storyboard as the person has since changed it.
 */

/** The parts of a storyboard (src/services/schemas/story.ts) these helpers read; lib never imports services. */
export interface StoryAsset {
  media_id: string;
  source: string;
}
interface StoryElement {
  id: string;
  kind: string;
  name: string;
  description: string;
  image: StoryAsset | null;
}
interface StoryScene {
  id: string;
  text: string;
  shot: string;
  duration: number;
  element_ids: readonly string[];
  image: StoryAsset | null;
  video: StoryAsset | null;
}
interface StoryAudio {
  kind: StoryAudioKind;
  text: string;
  voice: string;
  track: StoryAsset | null;
}
interface Storyboard {
  image_model: string;
  video_model: string;
  scenes: readonly StoryScene[];
  elements: readonly StoryElement[];
  audio: StoryAudio;
}

/** The idea's settings every picture depends on. */
export interface StoryLook {
  style: string;
  aspect_ratio: string;
}

/** cyrb53: a fast 53-bit string hash, the same in the browser and in Node. */
export function storyHash(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(16).padStart(14, '0');
}

const fingerprint = (parts: readonly unknown[]): string => storyHash(JSON.stringify(parts));

export const stylePrompt = (style: string): string => STORY_STYLES.find((item) => item.value === style)?.prompt ?? '';

/** An element's picture depends on the look, the image model and what the element is. */
export function elementSource(look: StoryLook, board: Pick<Storyboard, 'image_model'>, element: Pick<StoryElement, 'kind' | 'name' | 'description'>): string {
  return fingerprint(['element', look.style, look.aspect_ratio, board.image_model, element.kind, element.name.trim(), element.description.trim()]);
}

/** A scene's picture depends on the look, the model, its words and shot, and the pictures of its elements. */
export function sceneImageSource(look: StoryLook, board: Pick<Storyboard, 'image_model' | 'elements'>, scene: Pick<StoryScene, 'text' | 'shot' | 'element_ids'>): string {
  const elementPictures = scene.element_ids.map((elementId) => board.elements.find((element) => element.id === elementId)?.image?.media_id ?? `missing:${elementId}`);
  return fingerprint(['scene', look.style, look.aspect_ratio, board.image_model, scene.text.trim(), scene.shot, elementPictures]);
}

/** A scene's video depends on its picture, its shot (the camera), its length, its words and the motion model. */
export function sceneVideoSource(board: Pick<Storyboard, 'video_model'>, scene: Pick<StoryScene, 'text' | 'shot' | 'duration' | 'image'>): string {
  return fingerprint(['video', board.video_model, scene.image?.media_id ?? null, scene.shot, scene.duration, scene.text.trim()]);
}

/** The sound depends on its kind, words and voice. */
export function audioSource(audio: Pick<StoryAudio, 'kind' | 'text' | 'voice'>): string {
  return fingerprint(['audio', audio.kind, audio.text.trim(), audio.kind === 'speech' ? audio.voice : '']);
}

/** The final film depends on the videos it joins (in order) and the sound under it. */
export function storyConcatSource(videoMediaIds: readonly string[], audioMediaId: string | null): string {
  return fingerprint(['concat', [...videoMediaIds], audioMediaId]);
}

/** A text cut to `max` characters at a word, with "…" (the storyboard writer's and the narration's limit). */
export function clipText(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:]+$/, '')}…`;
}

/** The narration a storyboard is written with: its scenes' words read in order. */
export const scenesNarration = (scenes: readonly Pick<StoryScene, 'text'>[]): string =>
  clipText(scenes.map((scene) => scene.text.trim()).join(' '), STORY_AUDIO_TEXT_MAX);

/**
 * The narration once the scenes changed from `before` to `after`, so that it never keeps a scene's
 * old words (and its sound goes stale with them): a narration that still reads the scenes word for
 * word follows them (added, removed and moved scenes too); in one the person rewrote, a changed
 * scene's old words are replaced where they appear. Music and no sound are left as they are.
 */
export function narrationAfter(before: Pick<Storyboard, 'scenes'>, after: Pick<Storyboard, 'scenes' | 'audio'>): string {
  const { audio } = after;
  if (audio.kind !== 'speech') return audio.text;
  if (audio.text === scenesNarration(before.scenes)) return scenesNarration(after.scenes);
  let text = audio.text;
  for (const scene of after.scenes) {
    const from = before.scenes.find((candidate) => candidate.id === scene.id)?.text.trim() ?? '';
    const to = scene.text.trim();
    const at = from === '' || from === to ? -1 : text.indexOf(from);
    if (at >= 0) text = `${text.slice(0, at)}${to}${text.slice(at + from.length)}`;
  }
  return text === audio.text ? text : clipText(text, STORY_AUDIO_TEXT_MAX);
}

/** The prompt an element's picture is drawn from. */
export function elementPrompt(look: StoryLook, element: Pick<StoryElement, 'kind' | 'name' | 'description'>): string {
  const subject = element.description.trim() ? `${element.name.trim()}: ${element.description.trim()}` : element.name.trim();
  const framing = element.kind === 'character' ? 'character portrait, full figure' : element.kind === 'place' ? 'establishing view of the place' : 'object study';
  return [subject, framing, stylePrompt(look.style)].filter(Boolean).join(', ');
}

/** The prompt a scene's picture is drawn from. */
export function scenePrompt(look: StoryLook, scene: Pick<StoryScene, 'text' | 'shot'>): string {
  return [scene.text.trim(), `${scene.shot.replace('-', ' ')} shot`, stylePrompt(look.style)].filter(Boolean).join(', ');
}

/** The prompt a scene's video is made from: its words plus its shot's camera prompt (SPEC §3 camera motion). */
export function sceneVideoPrompt(scene: Pick<StoryScene, 'text' | 'shot'>): string {
  const camera = shotCamera(scene.shot);
  return [scene.text.trim(), camera.prompt].filter(Boolean).join('. ');
}

/** The state of one generated part, given its job's status class (undefined when its job is not known). */
export type StoryPartState = 'missing' | 'running' | 'ready' | 'failed' | 'stale';

/**
 * What a part is now: never made; its job running or failed; made (ready); or made from inputs
 * that have since changed (stale — kept and shown until it is made again).
 */
export function partState(asset: StoryAsset | null, currentSource: string, statusClass: 'processing' | 'success' | 'failed' | 'nsfw' | 'cancelled' | undefined): StoryPartState {
  if (!asset) return 'missing';
  if (statusClass === 'processing') return 'running';
  if (statusClass !== 'success') return 'failed';
  return asset.source === currentSource ? 'ready' : 'stale';
}

/** Status class of a story's media job, by id (the web app and the server each know them their way). */
export type StatusOf = (mediaId: string) => 'processing' | 'success' | 'failed' | 'nsfw' | 'cancelled' | undefined;

export interface StoryPartStates {
  elements: Record<string, StoryPartState>;
  sceneImages: Record<string, StoryPartState>;
  sceneVideos: Record<string, StoryPartState>;
  audio: StoryPartState;
}

/**
 * Every part's state. Staleness runs downstream: a scene picture drawn with an element picture
 * that is stale is stale too, and so is a video made from a stale scene picture.
 */
export function storyPartStates(look: StoryLook, board: Storyboard, statusOf: StatusOf): StoryPartStates {
  const status = (asset: StoryAsset | null) => (asset ? statusOf(asset.media_id) : undefined);
  const elements: Record<string, StoryPartState> = {};
  for (const element of board.elements) elements[element.id] = partState(element.image, elementSource(look, board, element), status(element.image));
  const sceneImages: Record<string, StoryPartState> = {};
  const sceneVideos: Record<string, StoryPartState> = {};
  for (const scene of board.scenes) {
    let image = partState(scene.image, sceneImageSource(look, board, scene), status(scene.image));
    if (image === 'ready' && scene.element_ids.some((elementId) => elements[elementId] === 'stale')) image = 'stale';
    sceneImages[scene.id] = image;
    let video = partState(scene.video, sceneVideoSource(board, scene), status(scene.video));
    if (video === 'ready' && image === 'stale') video = 'stale';
    sceneVideos[scene.id] = video;
  }
  const audio = board.audio.kind === 'none' ? 'ready' : partState(board.audio.track, audioSource(board.audio), status(board.audio.track));
  return { elements, sceneImages, sceneVideos, audio };
}

/** Parts a step's "make" button makes: every part missing, failed or stale (running and ready ones are kept). */
export const needsWork = (state: StoryPartState): boolean => state === 'missing' || state === 'failed' || state === 'stale';

export const idsNeedingWork = (states: Record<string, StoryPartState>): string[] =>
  Object.entries(states)
    .filter(([, state]) => needsWork(state))
    .map(([partId]) => partId);

/** Scene picture models (SPEC §3 `scene-image`), and the motion models that start from a first frame. */
export const storyImageModels = (): ModelOption[] => optionsForTool(IMAGE_MODEL_OPTIONS, 'scene-image');
export const storyVideoModels = (): VideoMotionModel[] => MOTION_MODELS.filter((model) => model.active === 1 && model.first_frame === 1 && model.value !== 'TryOnVideo');

export const storyImageModel = (value: string): ModelOption | undefined => storyImageModels().find((model) => model.value === value);
export const storyVideoModel = (value: string): VideoMotionModel | undefined => storyVideoModels().find((model) => model.value === value);

/** What one sound of this kind costs (SPEC §9: 8 credits each). */
export function storyAudioPrice(kind: StoryAudioKind): number {
  if (kind === 'none') return 0;
  return ASSET_TOOLS.find((option) => option.value === STORY_AUDIO_MODELS[kind].option)?.required_credits ?? 0;
}

/** The price of one part of a step, in credits: a picture at the image model's price, a video at the motion model's. */
export function storyPartPrice(board: Pick<Storyboard, 'image_model' | 'video_model'>, part: 'elements' | 'scenes' | 'videos'): number {
  if (part === 'videos') return storyVideoModel(board.video_model)?.required_credits ?? 0;
  return storyImageModel(board.image_model)?.required_credits ?? 0;
}

/** "{count} × {each} credits": what making these parts costs before it runs. */
export interface StoryCost {
  count: number;
  each: number;
  total: number;
}

export function storyCost(board: Pick<Storyboard, 'image_model' | 'video_model'>, part: 'elements' | 'scenes' | 'videos', count: number): StoryCost {
  const each = storyPartPrice(board, part);
  return { count, each, total: count * each };
}
