import { KLING_EFFECTS, PIKA_EFFECTS, PIXVERSE_EFFECTS, VIDU_EFFECTS, WAN_EFFECTS } from '../../../../src/config/effects.ts';
import { falCall, type FalInputOf, firstPicture, nearestRatio, need, pictureAt, promptOrNothing, fiveOrTen, textArg, urlOf } from './models-shared.ts';
import type { FalCall, FalModelEntry, FalRequest } from './types.ts';

/**
 * The AI Video tools on fal (SPEC §9 `VIDEO_EDIT_OPTIONS`, `VIDEO_EFFECT_OPTIONS`,
 * `VIDEO_TOOL_OPTIONS`). Kinora's fields: the source video is `video_url`, an effect's first
 * frame `image_url` and its end frame `ref_image_url`, lip sync's speech `audio_url`.
 */

const fal = (calls: Record<string, FalCall>): FalModelEntry => ({ fal: true, calls });

const sourceVideo = (request: FalRequest): string => need(urlOf(request, 'video_url'), 'the source video');
const firstFrame = (request: FalRequest): string => need(firstPicture(request), 'the first frame');
/** An effect's second picture (Kinora's `ref_image_url`; the second person of Kling's hug, kiss…). */
const endFrame = (request: FalRequest): string | undefined => urlOf(request, 'ref_image_url', 'end_image_url') ?? pictureAt(request, 1);

/** The effect Kinora asked for (`args.effect`), translated by `names`; refused when fal has no such effect. */
function effectName<T extends string>(request: FalRequest, family: string, names: Readonly<Record<string, T>>): T {
  const asked = textArg(request, 'effect') ?? '';
  const name = names[asked];
  if (name === undefined) throw new Error(`fal's ${family} has no "${asked}" effect.`);
  return name;
}

// --- Edit Video.
// Enhance: Topaz video upscale; Kinora's DeepClean / 2X&DeepClean / 4X&DeepClean are factors 1 / 2 / 4.
const enhance = falCall('fal-ai/topaz/upscale/video', 'video', (request) => {
  const mode = textArg(request, 'enhance_mode') ?? '';
  return { video_url: sourceVideo(request), upscale_factor: mode.startsWith('4X') ? 4 : mode.startsWith('2X') ? 2 : 1 };
});
// Sound effect: Hunyuan Video Foley answers the video with the sound the prompt describes laid under it.
const soundEffect = falCall('fal-ai/hunyuan-video-foley', 'video', (request) => ({
  video_url: sourceVideo(request),
  text_prompt: request.prompt,
  seed: request.seed,
}));
// Luma Ray 2 reframe needs a ratio; Kinora asks for one with this model (16:9 when none came).
const reframeVideo = falCall('fal-ai/luma-dream-machine/ray-2/reframe', 'video', (request) => ({
  video_url: sourceVideo(request),
  aspect_ratio: nearestRatio(request.aspectRatio, ['1:1', '16:9', '9:16', '4:3', '3:4', '21:9', '9:21'] as const, '16:9'),
  prompt: promptOrNothing(request),
}));

const LOCAL_EDIT = 'Runs locally with ffmpeg: it needs no model, so it is not sent to fal.';

// --- Video effects. Each family's Kinora values become the endpoint's own effect names. The
// name tables are built from src/config/effects.ts; every name in them was checked against the
// enum of fal's schema (`@fal-ai/client` 1.10.1), and fal-models.test.ts keeps them checked.

// Pika's Pikaffects are named by Kinora's labels (Cake-ify, Crumble, …): all 16 exist on fal.
const PIKA_NAMES = Object.fromEntries(PIKA_EFFECTS.map((effect) => [effect.value, effect.label])) as Record<string, PikaEffect>;
type PikaEffect = FalInputOf<'fal-ai/pika/v1.5/pikaffects'>['pikaffect'];
const pikaEffects = falCall('fal-ai/pika/v1.5/pikaffects', 'video', (request) => ({
  image_url: firstFrame(request),
  pikaffect: effectName(request, 'Pikaffects', PIKA_NAMES),
  seed: request.seed,
}));

// Wan's effect_type values are Kinora's values (all 18 exist); fal asks what the subject is, effects take no prompt.
type WanEffect = NonNullable<FalInputOf<'fal-ai/wan-effects'>['effect_type']>;
const WAN_NAMES = Object.fromEntries(WAN_EFFECTS.map((effect) => [effect.value, effect.value])) as Record<string, WanEffect>;
const wanEffects = falCall('fal-ai/wan-effects', 'video', (request) => ({
  image_url: firstFrame(request),
  effect_type: effectName(request, 'Wan effects', WAN_NAMES),
  subject: promptOrNothing(request) ?? 'the person in the picture',
  seed: request.seed,
}));

// Kling's effect_scene values are Kinora's (hug, heart_gesture, kiss, squish, expansion, fuzzyfuzzy);
// the two-person ones get both pictures, in order, as input_image_urls.
type KlingEffect = FalInputOf<'fal-ai/kling-video/v1.6/standard/effects'>['effect_scene'];
const KLING_NAMES = Object.fromEntries(KLING_EFFECTS.map((effect) => [effect.value, effect.value])) as Record<string, KlingEffect>;
const KLING_TWO_PEOPLE = new Set(KLING_EFFECTS.filter((effect) => effect.end_frame === 1).map((effect) => effect.value));
const klingEffects = falCall('fal-ai/kling-video/v1.6/standard/effects', 'video', (request) => {
  const scene = effectName(request, 'Kling effects', KLING_NAMES);
  const second = KLING_TWO_PEOPLE.has(scene) ? need(endFrame(request), 'the second person picture') : undefined;
  return { effect_scene: scene, input_image_urls: second === undefined ? [firstFrame(request)] : [firstFrame(request), second] };
});

/**
 * Vidu templates: fal names 26 of Kinora's 39 as they are; French Kiss is fal's `french_kiss_8s`.
 * fal's Vidu has no lego, squish, inflate, melt, crush, explode, snow_white, cyberpunk_me,
 * figurine or anime_me template, and its templates take one picture (fal's schema: "all other
 * templates accept only 1 image"), so the two-picture smooth_shift and ai_outfit cannot be given
 * their end frame: those are refused.
 */
type ViduTemplate = NonNullable<FalInputOf<'fal-ai/vidu/template-to-video'>['template']>;
const VIDU_RENAMED: Readonly<Record<string, ViduTemplate>> = { french_kiss: 'french_kiss_8s' };
const VIDU_MISSING = ['lego', 'squish', 'inflate', 'melt', 'crush', 'explode', 'snow_white', 'cyberpunk_me', 'figurine', 'anime_me', 'smooth_shift', 'ai_outfit'];
const VIDU_NAMES = Object.fromEntries(
  VIDU_EFFECTS.filter((effect) => !VIDU_MISSING.includes(effect.value)).map((effect) => [effect.value, VIDU_RENAMED[effect.value] ?? effect.value]),
) as Record<string, ViduTemplate>;
const viduEffects = falCall('fal-ai/vidu/template-to-video', 'video', (request) => ({
  template: effectName(request, 'Vidu templates', VIDU_NAMES),
  input_image_urls: [firstFrame(request)],
  seed: request.seed,
}));

/**
 * Pixverse effects: Kinora sends Pixverse's numeric template ids; fal's endpoint takes effect
 * names, so each id goes by its label. "Hug Your Love" is fal's "Hug"; fal has no Venom, Squish It,
 * Balloon Belly, Hulk Smash, Let's Dance!, Disney Princess or Warrior Armor: those are refused.
 */
type PixverseEffect = 'Kiss Me AI' | 'Hug' | 'Muscle Surge' | 'Zombie Mode' | 'Holy Wings' | 'Earth Zoom' | 'Microwave' | 'Suit Swagger' | 'Liquid Metal' | 'Leggy Run';
const PIXVERSE_RENAMED: Readonly<Record<string, PixverseEffect>> = { 'Hug Your Love': 'Hug' };
const PIXVERSE_ON_FAL: ReadonlySet<string> = new Set<PixverseEffect>(['Kiss Me AI', 'Hug', 'Muscle Surge', 'Zombie Mode', 'Holy Wings', 'Earth Zoom', 'Microwave', 'Suit Swagger', 'Liquid Metal', 'Leggy Run']);
const PIXVERSE_NAMES = Object.fromEntries(
  PIXVERSE_EFFECTS.flatMap((effect) => {
    const name = PIXVERSE_RENAMED[effect.label] ?? effect.label;
    return PIXVERSE_ON_FAL.has(name) ? [[effect.value, name]] : [];
  }),
) as Record<string, PixverseEffect>;
const pixverseEffects = falCall('fal-ai/pixverse/v4.5/effects', 'video', (request) => ({
  image_url: firstFrame(request),
  effect: effectName(request, 'Pixverse effects', PIXVERSE_NAMES),
  duration: '5',
}));

/** Kinora effects fal cannot make, by family (the catalogue may hide them). */
export const FAL_MISSING_EFFECTS: Readonly<Record<string, readonly string[]>> = {
  ViduEffects: VIDU_MISSING,
  PixverseEffects: PIXVERSE_EFFECTS.filter((effect) => !(effect.value in PIXVERSE_NAMES)).map((effect) => effect.value),
};

// --- Video tools.
/**
 * Lip sync needs a face and speech. Sync Lipsync 2 takes a face video and a speech audio; a face
 * picture is Avatar Lip Sync's. When Kinora has a text and a voice instead of an audio, the speech
 * is made first with Text2Speech's call and handed over as `audio_url` (the provider's step).
 */
const speech = (request: FalRequest): string => need(urlOf(request, 'audio_url'), 'the speech audio (make it from the text with Text2Speech first)');
const lipSync = falCall('fal-ai/sync-lipsync/v2', 'video', (request) => ({
  video_url: need(urlOf(request, 'video_url'), 'a face video (Lip Sync on fal animates a video; a picture is Avatar Lip Sync)'),
  audio_url: speech(request),
}));
// Avatar lip sync: Kling's AI Avatar animates a face picture speaking the audio.
const avatarLipSync = falCall('fal-ai/kling-video/ai-avatar/v2/standard', 'video', (request) => ({
  image_url: need(urlOf(request, 'image_url') ?? pictureAt(request, 0), 'a face picture (Avatar Lip Sync on fal animates a picture; a video is Lip Sync)'),
  audio_url: speech(request),
}));
// Luma modify (Restyle Video): Ray 2 Flash modify, with the optional style picture as its first frame reference.
const lumaModify = falCall('fal-ai/luma-dream-machine/ray-2-flash/modify', 'video', (request) => ({
  video_url: sourceVideo(request),
  prompt: promptOrNothing(request),
  image_url: urlOf(request, 'image_url'),
}));
// Kling elements: up to 4 pictures (Kinora's elements), in order, and the prompt that combines them.
const klingElements = falCall('fal-ai/kling-video/v1.6/pro/elements', 'video', (request) => {
  const elements = request.files.filter((file) => file.contentType.startsWith('image/')).map((file) => file.url).slice(0, 4);
  need(elements[0], 'the element pictures');
  return {
    prompt: request.prompt,
    input_image_urls: elements,
    aspect_ratio: nearestRatio(request.aspectRatio, ['16:9', '9:16', '1:1'] as const),
    duration: fiveOrTen(request),
  };
});

export const FAL_VIDEO_TOOL_MODELS: Readonly<Record<string, FalModelEntry>> = {
  CropToAspectRatio: { fal: false, reason: LOCAL_EDIT },
  AttachAudio: { fal: false, reason: LOCAL_EDIT },
  EnhanceVideo: fal({ 'edit-video': enhance }),
  SoundEffect: fal({ 'edit-video': soundEffect }),
  LumaReframeVideo: fal({ 'edit-video': reframeVideo }),

  PikaEffects: fal({ 'video-effects': pikaEffects }),
  WanEffects: fal({ 'video-effects': wanEffects }),
  KlingEffects: fal({ 'video-effects': klingEffects }),
  ViduEffects: fal({ 'video-effects': viduEffects }),
  PixverseEffects: fal({ 'video-effects': pixverseEffects }),

  LipSync: fal({ 'lip-sync': lipSync }),
  AvatarLipSync: fal({ 'lip-sync': avatarLipSync }),
  ReplaceBackgroundVideo: {
    fal: false,
    reason: 'fal removes a video background (bria/video/background-removal) but has no endpoint that puts a new picture or video behind it.',
  },
  LumaModify: fal({ 'modify-video': lumaModify }),
  KlingProElements: fal({ 'video-elements': klingElements }),
};
