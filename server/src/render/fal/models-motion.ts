import { CAMERA_MOTIONS } from '../../../../src/config/camera-motions.ts';
import { falCall, nearest, nearestRatio, need, numberArg, pictureAt, secondsOf, textArg, fiveOrTen, urlOf } from './models-shared.ts';
import type { FalCall, FalModelEntry, FalRequest } from './types.ts';

/**
 * The motion models (SPEC §9 `MOTION_MODELS`) on fal, keyed by what the video-creation route asks
 * for (server/src/routes/video-creation.ts): AI Motion's `motion_mode` (`image`, `text`,
 * `transition`, `composer`), and the creation types `try-on`, `character-animate`, `extend-video`.
 *
 * Kinora's request: the pictures are `image_urls` in order (first frame, then the end frame of a
 * transition, or the composer's pictures), the driving / extended video is `video_url`; the
 * preset's fields (motion_type, motion_length, …), prompt_strength and frame_selection are args.
 *
 * Mapping rules:
 * - The preset's camera motion (`motion_type`) adds its phrase to the prompt ("Camera pan right"),
 *   as SPEC §9 says camera motions do; Auto adds nothing.
 * - Seconds (motion_length 2–10) become each endpoint's nearest allowed duration: Kling "5"/"10",
 *   Luma "5s"/"9s", Veo "4s"/"6s"/"8s", Hailuo "6"/"10", Seedance "2"…"12", Pixverse "5"/"8",
 *   Sora 4/8/12. Wan, Hunyuan and LTX keep their default length (about 5 s).
 * - The end frame of a transition is the second picture: Kling's `tail_image_url`, Luma's,
 *   Hailuo's and Seedance's `end_image_url`, Veo 3.1's `last_frame_url`, LTX's last conditioning frame.
 * - prompt_strength (0–100, how much the text drives the motion) is Kling's `cfg_scale` (0–1).
 * - motion_amount has no counterpart on fal's endpoints and is not sent.
 * - A text video's aspect ratio goes to the nearest the endpoint offers.
 * Modes a model cannot serve are left out of its calls (falCallFor answers why); each is named below.
 */

const CAMERA_PHRASES: ReadonlyMap<string, string> = new Map(CAMERA_MOTIONS.map((motion) => [motion.value, motion.prompt]));

/** The prompt with the preset's camera phrase after it. */
function motionPrompt(request: FalRequest, extra?: string): string {
  const camera = CAMERA_PHRASES.get(textArg(request, 'motion_type') ?? '') ?? '';
  return [request.prompt.trim(), camera, extra ?? ''].filter((part) => part !== '').join('. ');
}

const first = (request: FalRequest): string => need(pictureAt(request, 0), 'the first frame');
const last = (request: FalRequest): string => need(pictureAt(request, 1), 'the end frame');
const allPictures = (request: FalRequest): string[] => request.files.filter((file) => file.contentType.startsWith('image/')).map((file) => file.url);
const drivingVideo = (request: FalRequest): string => need(urlOf(request, 'video_url'), 'the video');

/** Kling's cfg_scale (0–1) from Kinora's prompt_strength (0–100); absent → Kling's default. */
const cfgScale = (request: FalRequest): number | undefined => {
  const strength = numberArg(request, 'prompt_strength');
  return strength === undefined ? undefined : Math.min(1, Math.max(0, strength / 100));
};

/** fal's extend endpoints continue a video from its last frame; "First" (extend backwards) has no counterpart. */
function extendFromLast(request: FalRequest): void {
  if (textArg(request, 'frame_selection') === 'First') throw new Error('fal extends a video from its last frame only: choose Last.');
}

const seconds = (request: FalRequest, allowed: readonly number[]): number => nearest(secondsOf(request), allowed);

// --- Kling (Kuaishou).
const klingImage = (endpoint: 'fal-ai/kling-video/v1.6/pro/image-to-video' | 'fal-ai/kling-video/v2.5-turbo/pro/image-to-video') =>
  falCall(endpoint, 'video', (request) => ({
    prompt: motionPrompt(request),
    image_url: first(request),
    duration: fiveOrTen(request),
    cfg_scale: cfgScale(request),
  }));
const klingTransition = (endpoint: 'fal-ai/kling-video/v1.6/pro/image-to-video' | 'fal-ai/kling-video/v2.5-turbo/pro/image-to-video') =>
  falCall(endpoint, 'video', (request) => ({
    prompt: motionPrompt(request),
    image_url: first(request),
    tail_image_url: last(request),
    duration: fiveOrTen(request),
    cfg_scale: cfgScale(request),
  }));
const klingText = (endpoint: 'fal-ai/kling-video/v1.6/pro/text-to-video' | 'fal-ai/kling-video/v2.5-turbo/pro/text-to-video' | 'fal-ai/kling-video/v2.1/master/text-to-video') =>
  falCall(endpoint, 'video', (request) => ({
    prompt: motionPrompt(request),
    aspect_ratio: nearestRatio(request.aspectRatio, ['16:9', '9:16', '1:1'] as const),
    duration: fiveOrTen(request),
  }));
const kling2Image = falCall('fal-ai/kling-video/v2.1/master/image-to-video', 'video', (request) => ({
  prompt: motionPrompt(request),
  image_url: first(request),
  duration: fiveOrTen(request),
  cfg_scale: cfgScale(request),
}));
// Character animate: Kling's motion control moves the picture's character as the driving video moves.
const klingMotionControl = (endpoint: 'fal-ai/kling-video/v2.6/standard/motion-control' | 'fal-ai/kling-video/v2.6/pro/motion-control') =>
  falCall(endpoint, 'video', (request) => ({
    image_url: first(request),
    video_url: drivingVideo(request),
    character_orientation: 'video',
    prompt: request.prompt.trim() === '' ? undefined : request.prompt,
  }));

// --- Luma Dream Machine (Ray 2 Flash is "Luma AI", Ray 2 is "Luma Ray2").
type LumaTier = 'fal-ai/luma-dream-machine/ray-2-flash' | 'fal-ai/luma-dream-machine/ray-2';
const lumaDuration = (request: FalRequest): '5s' | '9s' => (seconds(request, [5, 9]) === 9 ? '9s' : '5s');
const lumaImage = (tier: LumaTier, transition: boolean) =>
  falCall(tier === 'fal-ai/luma-dream-machine/ray-2' ? 'fal-ai/luma-dream-machine/ray-2/image-to-video' : 'fal-ai/luma-dream-machine/ray-2-flash/image-to-video', 'video', (request) => ({
    prompt: motionPrompt(request),
    image_url: first(request),
    end_image_url: transition ? last(request) : undefined,
    duration: lumaDuration(request),
  }));
const lumaText = (tier: LumaTier) =>
  falCall(tier, 'video', (request) => ({
    prompt: motionPrompt(request),
    aspect_ratio: nearestRatio(request.aspectRatio, ['16:9', '9:16', '4:3', '3:4', '21:9', '9:21'] as const),
    duration: lumaDuration(request),
  }));

// --- Veo (Google). Veo Fast is sold "without audio" (SPEC credit tiers), so it asks for none.
const veoDuration = (request: FalRequest): '4s' | '6s' | '8s' => `${seconds(request, [4, 6, 8])}s` as '4s' | '6s' | '8s';
const veoImage = (endpoint: 'fal-ai/veo3/image-to-video' | 'fal-ai/veo3/fast/image-to-video' | 'fal-ai/veo3.1/image-to-video', audio: boolean) =>
  falCall(endpoint, 'video', (request) => ({
    prompt: motionPrompt(request),
    image_url: first(request),
    duration: veoDuration(request),
    generate_audio: audio,
    seed: request.seed,
  }));
const veoText = (endpoint: 'fal-ai/veo3' | 'fal-ai/veo3/fast' | 'fal-ai/veo3.1', audio: boolean) =>
  falCall(endpoint, 'video', (request) => ({
    prompt: motionPrompt(request),
    aspect_ratio: nearestRatio(request.aspectRatio, ['16:9', '9:16'] as const),
    duration: veoDuration(request),
    generate_audio: audio,
    seed: request.seed,
  }));
const veoExtend = (endpoint: 'fal-ai/veo3.1/extend-video' | 'fal-ai/veo3.1/fast/extend-video', audio: boolean) =>
  falCall(endpoint, 'video', (request) => {
    extendFromLast(request);
    return { prompt: motionPrompt(request), video_url: drivingVideo(request), generate_audio: audio, seed: request.seed };
  });
const veoTransition = falCall('fal-ai/veo3.1/first-last-frame-to-video', 'video', (request) => ({
  prompt: motionPrompt(request),
  first_frame_url: first(request),
  last_frame_url: last(request),
  duration: veoDuration(request),
  seed: request.seed,
}));

// --- MiniMax Hailuo 02 (standard): 6 or 10 seconds.
const hailuoDuration = (request: FalRequest): '6' | '10' => (seconds(request, [6, 10]) === 10 ? '10' : '6');
const hailuoImage = falCall('fal-ai/minimax/hailuo-02/standard/image-to-video', 'video', (request) => ({
  prompt: motionPrompt(request),
  image_url: first(request),
  duration: hailuoDuration(request),
}));
const hailuoText = falCall('fal-ai/minimax/hailuo-02/standard/text-to-video', 'video', (request) => ({
  prompt: motionPrompt(request),
  duration: hailuoDuration(request),
}));

// --- Seedance 1 Pro (ByteDance): 2–12 seconds, any of Kinora's ratios.
type SeedanceSeconds = '2' | '3' | '4' | '5' | '6' | '7' | '8' | '9' | '10' | '11' | '12';
const seedanceDuration = (request: FalRequest): SeedanceSeconds => String(seconds(request, [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12])) as SeedanceSeconds;
const seedanceImage = falCall('fal-ai/bytedance/seedance/v1/pro/image-to-video', 'video', (request) => ({
  prompt: motionPrompt(request),
  image_url: first(request),
  duration: seedanceDuration(request),
  seed: request.seed,
}));
const seedanceText = falCall('fal-ai/bytedance/seedance/v1/pro/text-to-video', 'video', (request) => ({
  prompt: motionPrompt(request),
  aspect_ratio: nearestRatio(request.aspectRatio, ['21:9', '16:9', '4:3', '1:1', '3:4', '9:16', '9:21'] as const),
  duration: seedanceDuration(request),
  seed: request.seed,
}));

// --- HunyuanVideo 1.5 (Tencent).
const hunyuanImage = falCall('fal-ai/hunyuan-video-v1.5/image-to-video', 'video', (request) => ({
  prompt: motionPrompt(request),
  image_url: first(request),
  seed: request.seed,
}));
const hunyuanText = falCall('fal-ai/hunyuan-video-v1.5/text-to-video', 'video', (request) => ({
  prompt: motionPrompt(request),
  aspect_ratio: nearestRatio(request.aspectRatio, ['16:9', '9:16'] as const),
  seed: request.seed,
}));

// --- Pixverse 4.5: 5 or 8 seconds; its extend endpoint continues a video.
const pixverseDuration = (request: FalRequest): '5' | '8' => (seconds(request, [5, 8]) === 8 ? '8' : '5');
const pixverseImage = falCall('fal-ai/pixverse/v4.5/image-to-video', 'video', (request) => ({
  prompt: motionPrompt(request),
  image_url: first(request),
  duration: pixverseDuration(request),
  seed: request.seed,
}));
const pixverseText = falCall('fal-ai/pixverse/v4.5/text-to-video', 'video', (request) => ({
  prompt: motionPrompt(request),
  aspect_ratio: nearestRatio(request.aspectRatio, ['16:9', '4:3', '1:1', '3:4', '9:16'] as const),
  duration: pixverseDuration(request),
  seed: request.seed,
}));
const pixverseExtend = falCall('fal-ai/pixverse/extend', 'video', (request) => {
  extendFromLast(request);
  return { prompt: motionPrompt(request), video_url: drivingVideo(request), duration: pixverseDuration(request), seed: request.seed };
});

// --- Wan 2.1 (Alibaba); Wan 2.2 Animate moves a character picture like the driving video.
const wanImage = falCall('fal-ai/wan-i2v', 'video', (request) => ({ prompt: motionPrompt(request), image_url: first(request), seed: request.seed }));
const wanText = falCall('fal-ai/wan-t2v', 'video', (request) => ({
  prompt: motionPrompt(request),
  aspect_ratio: nearestRatio(request.aspectRatio, ['16:9', '9:16'] as const),
  seed: request.seed,
}));
const wanAnimate = falCall('fal-ai/wan/v2.2-14b/animate/move', 'video', (request) => ({
  image_url: first(request),
  video_url: drivingVideo(request),
  seed: request.seed,
}));

// --- Sora 2 (OpenAI): 4, 8 or 12 seconds.
type SoraSeconds = '4' | '8' | '12';
const soraDuration = (request: FalRequest): SoraSeconds => String(seconds(request, [4, 8, 12])) as SoraSeconds;
const soraImage = (endpoint: 'fal-ai/sora-2/image-to-video' | 'fal-ai/sora-2/image-to-video/pro') =>
  falCall(endpoint, 'video', (request) => ({ prompt: motionPrompt(request), image_url: first(request), duration: soraDuration(request) }));
const soraText = (endpoint: 'fal-ai/sora-2/text-to-video' | 'fal-ai/sora-2/text-to-video/pro') =>
  falCall(endpoint, 'video', (request) => ({
    prompt: motionPrompt(request),
    aspect_ratio: nearestRatio(request.aspectRatio, ['16:9', '9:16'] as const),
    duration: soraDuration(request),
  }));

// --- LTX Video 13B distilled (Lightricks): fal's cheapest video model, and the one whose
// multi-conditioning endpoint places pictures at chosen frames, so it serves every AI Motion mode.
const LTX_FRAMES = 121; // fal's default: about 5 s at 24 fps.
const ltxImage = (extra?: string) =>
  falCall('fal-ai/ltx-video-13b-distilled/image-to-video', 'video', (request) => ({
    prompt: motionPrompt(request, extra),
    image_url: first(request),
    seed: request.seed,
  }));
const ltxText = (extra?: string) =>
  falCall('fal-ai/ltx-video-13b-distilled', 'video', (request) => ({
    prompt: motionPrompt(request, extra),
    aspect_ratio: nearestRatio(request.aspectRatio, ['9:16', '1:1', '16:9'] as const),
    seed: request.seed,
  }));
// The pictures spread evenly over the clip: the first at frame 0, the last at the last frame (LTX wants multiples of 8).
const ltxKeyframes = (urls: readonly string[]) =>
  urls.map((url, index) => ({
    image_url: url,
    start_frame_num: urls.length === 1 ? 0 : Math.floor(((LTX_FRAMES - 1) * index) / (urls.length - 1) / 8) * 8,
  }));
const ltxMulti = (minimum: number, extra?: string) =>
  falCall('fal-ai/ltx-video-13b-distilled/multiconditioning', 'video', (request) => {
    const urls = allPictures(request);
    need(urls[minimum - 1], `${minimum} pictures`);
    return { prompt: motionPrompt(request, extra), images: ltxKeyframes(urls), num_frames: LTX_FRAMES, seed: request.seed };
  });

// --- The video composer through keyframes: Pika 2.2 Pikaframes (2–5 pictures; a sixth is left out).
const pikaframes = falCall('fal-ai/pika/v2.2/pikaframes', 'video', (request) => {
  const urls = allPictures(request).slice(0, 5);
  need(urls[1], 'at least 2 pictures');
  const each = Math.max(1, Math.round(secondsOf(request) / (urls.length - 1)));
  return { prompt: request.prompt.trim() === '' ? undefined : motionPrompt(request), image_urls: urls, transitions: urls.slice(1).map(() => ({ duration: each })), seed: request.seed };
});

const calls = (entries: Record<string, FalCall>): FalModelEntry => ({ fal: true, calls: entries });

export const FAL_MOTION_MODELS: Readonly<Record<string, FalModelEntry>> = {
  // Auto and Auto T3 are Kinora's "choose for me" tiers, not vendors: Auto runs Kling 2.5 Turbo Pro,
  // Auto T3 (Kinora's top tier) Veo 3.1; both compose through Pikaframes.
  Auto: calls({
    image: klingImage('fal-ai/kling-video/v2.5-turbo/pro/image-to-video'),
    text: klingText('fal-ai/kling-video/v2.5-turbo/pro/text-to-video'),
    transition: klingTransition('fal-ai/kling-video/v2.5-turbo/pro/image-to-video'),
    composer: pikaframes,
    'character-animate': wanAnimate,
    'extend-video': pixverseExtend,
  }),
  AutoT3: calls({
    image: veoImage('fal-ai/veo3.1/image-to-video', true),
    text: veoText('fal-ai/veo3.1', true),
    transition: veoTransition,
    composer: pikaframes,
    'character-animate': klingMotionControl('fal-ai/kling-video/v2.6/pro/motion-control'),
    'extend-video': veoExtend('fal-ai/veo3.1/extend-video', true),
  }),
  // Kling AI (1.6 Pro) and Kling 2 (2.1 Master): no composer or extend on fal's Kling; Kling 2 has no end frame.
  KlingAI: calls({
    image: klingImage('fal-ai/kling-video/v1.6/pro/image-to-video'),
    text: klingText('fal-ai/kling-video/v1.6/pro/text-to-video'),
    transition: klingTransition('fal-ai/kling-video/v1.6/pro/image-to-video'),
    'character-animate': klingMotionControl('fal-ai/kling-video/v2.6/standard/motion-control'),
  }),
  Kling2: calls({
    image: kling2Image,
    text: klingText('fal-ai/kling-video/v2.1/master/text-to-video'),
    'character-animate': klingMotionControl('fal-ai/kling-video/v2.6/pro/motion-control'),
  }),
  // Luma: no composer, character animation or extend on fal.
  LumaAI: calls({
    image: lumaImage('fal-ai/luma-dream-machine/ray-2-flash', false),
    text: lumaText('fal-ai/luma-dream-machine/ray-2-flash'),
    transition: lumaImage('fal-ai/luma-dream-machine/ray-2-flash', true),
  }),
  LumaRay2: calls({ image: lumaImage('fal-ai/luma-dream-machine/ray-2', false), text: lumaText('fal-ai/luma-dream-machine/ray-2') }),
  // Veo 3 / Veo 3 Fast; extending goes through Veo 3.1's extend (fal has none for Veo 3). No composer or character animation.
  VeoFast: calls({
    image: veoImage('fal-ai/veo3/fast/image-to-video', false),
    text: veoText('fal-ai/veo3/fast', false),
    'extend-video': veoExtend('fal-ai/veo3.1/fast/extend-video', false),
  }),
  Veo: calls({
    image: veoImage('fal-ai/veo3/image-to-video', true),
    text: veoText('fal-ai/veo3', true),
    'extend-video': veoExtend('fal-ai/veo3.1/extend-video', true),
  }),
  RunwayML: { fal: false, reason: "Runway's models are not on fal." },
  MinimaxHailuo: calls({ image: hailuoImage, text: hailuoText }),
  Seedance: calls({ image: seedanceImage, text: seedanceText }),
  Hunyuan: calls({ image: hunyuanImage, text: hunyuanText }),
  Pixverse: calls({ image: pixverseImage, text: pixverseText, 'extend-video': pixverseExtend }),
  // Pico Motion and Static Motion are Kinora's own low tiers, not vendors: both run LTX Video, the
  // cheapest model on fal, which also serves transitions and the composer. Static Motion holds the camera still.
  PicoMotion: calls({ image: ltxImage(), text: ltxText(), transition: ltxMulti(2), composer: ltxMulti(2) }),
  StaticMotion: calls({
    image: ltxImage('Static camera, subtle natural motion'),
    text: ltxText('Static camera, subtle natural motion'),
    composer: ltxMulti(2, 'Static camera, subtle natural motion'),
  }),
  Wan: calls({ image: wanImage, text: wanText, 'character-animate': wanAnimate }),
  Sora: calls({ image: soraImage('fal-ai/sora-2/image-to-video'), text: soraText('fal-ai/sora-2/text-to-video') }),
  SoraPro: calls({ image: soraImage('fal-ai/sora-2/image-to-video/pro'), text: soraText('fal-ai/sora-2/text-to-video/pro') }),
  TryOnVideo: {
    fal: false,
    reason: "fal has no video try-on: Vidu's AI Outfit template there takes one picture, so the clothes cannot be given.",
  },
};
