import {
  falCall,
  firstPicture,
  imageSize,
  nearestRatio,
  need,
  negativePrompt,
  numImages,
  pictureAt,
  promptOrNothing,
  textArg,
  urlOf,
  urlsOf,
  WIDE_RATIOS,
} from './models-shared.ts';
import type { FalCall, FalModelEntry, FalRequest } from './types.ts';

/**
 * The image models (SPEC §9, `IMAGE_MODEL_OPTIONS`) and the LoRA trainers on fal. Every input is
 * typed by `@fal-ai/client`'s EndpointTypeMap; `docs` is each endpoint's API page on fal.ai.
 *
 * Aspect ratios: FLUX 1.1, Seedream, Stable Diffusion and FLUX LoRA take an `image_size` preset
 * (16:9 → landscape_16_9, 4:3 → landscape_4_3, 1:1 → square_hd, 3:4 → portrait_4_3,
 * 9:16 → portrait_16_9); Kontext, Ultra, Nano Banana and fal's image-editing apps take the ratio
 * itself. "Origin" arrives as no ratio and leaves fal's default (the input picture's shape).
 *
 * Scene pictures (`scene-image`, the AI Story's scenes): models that take several pictures
 * composite the story's element pictures (`files`) into the scene; text-only models draw the
 * scene from its prompt. A multi-picture call needs at least one element picture.
 */

const fal = (calls: Record<string, FalCall>): FalModelEntry => ({ fal: true, calls });

/** Every picture of the request, in order (elements, references, the edited picture). */
const pictures = (request: FalRequest): string[] => request.files.filter((file) => file.contentType.startsWith('image/')).map((file) => file.url);

const atLeastOne = (urls: string[], what: string): string[] => {
  need(urls[0], what);
  return urls;
};

const wideRatio = (request: FalRequest) => nearestRatio(request.aspectRatio, WIDE_RATIOS);

/** Trained LoRA weights (the provider puts the trainer's `diffusers_lora_file` URL in args.lora_url). */
const loras = (request: FalRequest): { path: string; scale: number }[] => {
  const path = textArg(request, 'lora_url');
  return path === undefined ? [] : [{ path, scale: 1 }];
};

// --- Seedream 4 (ByteDance): text-to-image, and its edit endpoint for pictures (up to 10).
const seedreamText = falCall('fal-ai/bytedance/seedream/v4/text-to-image', 'image', (request) => ({
  prompt: request.prompt,
  image_size: imageSize(request),
  seed: request.seed,
  num_images: numImages(request),
}));
const seedreamEdit = falCall('fal-ai/bytedance/seedream/v4/edit', 'image', (request) => ({
  prompt: request.prompt,
  image_urls: atLeastOne(pictures(request), 'a picture'),
  image_size: imageSize(request),
  seed: request.seed,
  num_images: numImages(request),
}));

// --- FLUX 1.1 [pro] and Ultra (Black Forest Labs): text only.
const fluxPro = falCall('fal-ai/flux-pro/v1.1', 'image', (request) => ({
  prompt: request.prompt,
  image_size: imageSize(request),
  seed: request.seed,
  num_images: numImages(request),
}));
const fluxUltra = falCall('fal-ai/flux-pro/v1.1-ultra', 'image', (request) => ({
  prompt: request.prompt,
  aspect_ratio: wideRatio(request),
  seed: request.seed,
  num_images: numImages(request),
}));

// --- FLUX.1 Kontext [pro] / [max]: text-to-image, single-picture edit, multi-picture (scenes).
const kontext = (tier: 'pro' | 'max'): Record<string, FalCall> => {
  const text = falCall(tier === 'pro' ? 'fal-ai/flux-pro/kontext/text-to-image' : 'fal-ai/flux-pro/kontext/max/text-to-image', 'image', (request) => ({
    prompt: request.prompt,
    aspect_ratio: wideRatio(request),
    seed: request.seed,
    num_images: numImages(request),
  }));
  const edit = falCall(tier === 'pro' ? 'fal-ai/flux-pro/kontext' : 'fal-ai/flux-pro/kontext/max', 'image', (request) => ({
    prompt: request.prompt,
    image_url: need(firstPicture(request), 'the picture to edit'),
    aspect_ratio: wideRatio(request),
    seed: request.seed,
    num_images: numImages(request),
  }));
  const multi = falCall(tier === 'pro' ? 'fal-ai/flux-pro/kontext/multi' : 'fal-ai/flux-pro/kontext/max/multi', 'image', (request) => ({
    prompt: request.prompt,
    image_urls: atLeastOne(pictures(request), 'an element picture'),
    aspect_ratio: wideRatio(request),
    seed: request.seed,
    num_images: numImages(request),
  }));
  return { 'text-to-image': text, 'image-to-image': edit, 'edit-image': edit, 'scene-image': multi };
};

// --- FLUX.1 Kontext [dev]: open weights, one picture.
const kontextDev = falCall('fal-ai/flux-kontext/dev', 'image', (request) => ({
  prompt: request.prompt,
  image_url: need(firstPicture(request), 'the picture to edit'),
  resolution_mode: request.aspectRatio ? wideRatio(request) : 'match_input',
  seed: request.seed,
  num_images: numImages(request),
}));

// --- Nano Banana (Gemini 2.5 Flash Image): text-to-image and multi-picture edit.
const nanoBananaText = falCall('fal-ai/nano-banana', 'image', (request) => ({
  prompt: request.prompt,
  aspect_ratio: nearestRatio(request.aspectRatio, ['21:9', '16:9', '3:2', '4:3', '5:4', '1:1', '4:5', '3:4', '2:3', '9:16'] as const),
  seed: request.seed,
  num_images: numImages(request),
}));
const nanoBananaEdit = falCall('fal-ai/nano-banana/edit', 'image', (request) => ({
  prompt: request.prompt,
  image_urls: atLeastOne(pictures(request), 'a picture'),
  aspect_ratio: nearestRatio(request.aspectRatio, ['21:9', '16:9', '3:2', '4:3', '5:4', '1:1', '4:5', '3:4', '2:3', '9:16'] as const, 'auto'),
  seed: request.seed,
  num_images: numImages(request),
}));

// --- OpenAI gpt-image-1: three sizes only, so each ratio takes the nearest (square, 3:2 or 2:3).
const gptSize = (request: FalRequest): '1024x1024' | '1536x1024' | '1024x1536' | undefined => {
  const ratio = nearestRatio(request.aspectRatio, ['1:1', '3:2', '2:3'] as const);
  if (ratio === undefined) return undefined;
  return ratio === '1:1' ? '1024x1024' : ratio === '3:2' ? '1536x1024' : '1024x1536';
};
const gptText = falCall('fal-ai/gpt-image-1/text-to-image', 'image', (request) => ({
  prompt: request.prompt,
  image_size: gptSize(request),
  num_images: numImages(request),
}));
const gptEdit = falCall('fal-ai/gpt-image-1/edit-image', 'image', (request) => ({
  prompt: request.prompt,
  image_urls: atLeastOne(pictures(request), 'a picture'),
  image_size: gptSize(request) ?? 'auto',
  num_images: numImages(request),
}));

const stableDiffusion = falCall('fal-ai/stable-diffusion-v35-large', 'image', (request) => ({
  prompt: request.prompt,
  image_size: imageSize(request),
  seed: request.seed,
  negative_prompt: negativePrompt(request),
  num_images: numImages(request),
}));
const realisticVision = falCall('fal-ai/realistic-vision', 'image', (request) => ({
  prompt: request.prompt,
  image_size: imageSize(request),
  seed: request.seed,
  negative_prompt: negativePrompt(request),
  num_images: numImages(request),
}));

// --- Trained styles: FLUX.1 [dev] with the LoRA the fine-tune made (TunedFlux1 without one is plain FLUX dev).
const fluxLora = falCall('fal-ai/flux-lora', 'image', (request) => ({
  prompt: request.prompt,
  image_size: imageSize(request),
  loras: loras(request),
  seed: request.seed,
  num_images: numImages(request),
}));
const kontextLora = falCall('fal-ai/flux-kontext-lora', 'image', (request) => ({
  prompt: request.prompt,
  image_url: need(firstPicture(request), 'the picture to edit'),
  loras: loras(request),
  resolution_mode: request.aspectRatio ? wideRatio(request) : 'match_input',
  seed: request.seed,
  num_images: numImages(request),
}));

// Sketch: the drawing is the edge map of FLUX's Canny control, the prompt paints it.
const sketch = falCall('fal-ai/flux-lora-canny', 'image', (request) => ({
  prompt: request.prompt,
  image_url: need(firstPicture(request), 'the sketch'),
  image_size: imageSize(request),
  seed: request.seed,
  num_images: numImages(request),
}));
// Restructure: keeps the picture's depth (its layout and shapes) and redraws it from the prompt.
const restructure = falCall('fal-ai/flux-lora-depth', 'image', (request) => ({
  prompt: request.prompt,
  image_url: need(firstPicture(request), 'the picture'),
  image_size: imageSize(request),
  seed: request.seed,
  num_images: numImages(request),
}));
// Remake (reimagine): Bria keeps the picture's structure; its prompt is required, Kinora's is optional.
const remake = falCall('fal-ai/bria/reimagine', 'image', (request) => ({
  prompt: promptOrNothing(request) ?? 'A fresh take on this picture, same composition',
  structure_image_url: need(firstPicture(request), 'the picture'),
  seed: request.seed,
}));

// --- Try-on: Kinora's person is `human_image_url`, the clothes `clothes_image_url`.
const person = (request: FalRequest): string => need(urlOf(request, 'human_image_url') ?? pictureAt(request, 0), 'the person picture');
const clothes = (request: FalRequest): string => need(urlOf(request, 'clothes_image_url') ?? pictureAt(request, 1), 'the clothes picture');
const klingTryOn = falCall('fal-ai/kling/v1-5/kolors-virtual-try-on', 'image', (request) => ({
  human_image_url: person(request),
  garment_image_url: clothes(request),
}));
const fashnTryOn = falCall('fal-ai/fashn/tryon/v1.6', 'image', (request) => ({
  model_image: person(request),
  garment_image: clothes(request),
  category: 'auto',
  seed: request.seed,
}));
// Kontext try-on: FLUX Kontext [pro] multi with both pictures and a fixed instruction (the tool has no prompt).
const kontextTryOn = falCall('fal-ai/flux-pro/kontext/multi', 'image', (request) => ({
  prompt: 'Dress the person from the first picture in the clothes from the second picture; keep their face, pose and background.',
  image_urls: [person(request), clothes(request)],
  seed: request.seed,
}));

// --- Backgrounds.
const removeBackground = falCall('fal-ai/bria/background/remove', 'image', (request) => ({
  image_url: need(firstPicture(request), 'the picture'),
}));
// The new background is described by the prompt or given as a picture (`image2_url` → Bria's ref_image_url).
const replaceBackground = falCall('fal-ai/bria/background/replace', 'image', (request) => ({
  image_url: need(firstPicture(request), 'the subject picture'),
  prompt: promptOrNothing(request),
  ref_image_url: urlOf(request, 'image2_url'),
  seed: request.seed,
}));
const restyleBackground = falCall('fal-ai/image-editing/background-change', 'image', (request) => ({
  image_url: need(firstPicture(request), 'the picture'),
  prompt: promptOrNothing(request),
  seed: request.seed,
}));
// ByteDance restyle: Seedream's edit, told to redraw the picture in the style Kinora asks for.
const byteDanceRestyle = falCall('fal-ai/bytedance/seedream/v4/edit', 'image', (request) => ({
  prompt: `Redraw this picture in this style: ${request.prompt}. Keep its subject and composition.`,
  image_urls: [need(firstPicture(request), 'the picture')],
  seed: request.seed,
}));

// --- Edit Image operations.
const removeText = falCall('fal-ai/image-editing/text-removal', 'image', (request) => ({
  image_url: need(firstPicture(request), 'the picture'),
  seed: request.seed,
}));
// Expand: fal's reframe app outpaints the picture to the asked ratio (Origin leaves fal's default).
const expand = falCall('fal-ai/image-editing/reframe', 'image', (request) => ({
  image_url: need(firstPicture(request), 'the picture'),
  aspect_ratio: wideRatio(request),
  seed: request.seed,
}));
// Luma Photon reframe needs a ratio: Origin (none) keeps a square canvas.
const lumaReframe = falCall('fal-ai/luma-photon/reframe', 'image', (request) => ({
  image_url: need(firstPicture(request), 'the picture'),
  aspect_ratio: nearestRatio(request.aspectRatio, ['1:1', '16:9', '9:16', '4:3', '3:4', '21:9', '9:21'] as const, '1:1'),
  prompt: promptOrNothing(request),
}));
const upscale = falCall('fal-ai/clarity-upscaler', 'image', (request) => ({
  image_url: need(firstPicture(request), 'the picture'),
  upscale_factor: 2,
  seed: request.seed,
}));
const topazUpscale = falCall('fal-ai/topaz/upscale/image', 'image', (request) => ({
  image_url: need(firstPicture(request), 'the picture'),
  upscale_factor: 2,
}));

// Image Elements: FLUX Kontext [max] multi puts the element pictures together as the prompt says.
const imageElements = falCall('fal-ai/flux-pro/kontext/max/multi', 'image', (request) => ({
  prompt: request.prompt,
  image_urls: atLeastOne(urlsOf(request, 'image_urls'), 'the element pictures'),
  aspect_ratio: wideRatio(request),
  seed: request.seed,
}));

// --- LoRA trainers: the provider zips the pictures into a data URI in args.images_data_url.
const zipOf = (request: FalRequest): string => need(textArg(request, 'images_data_url') ?? urlOf(request, 'images_data_url'), 'the zip of pictures');
const fluxTrainer = falCall('fal-ai/flux-lora-fast-training', 'lora', (request) => ({
  images_data_url: zipOf(request),
  trigger_word: textArg(request, 'trigger_word'),
}));
// Kontext learns edits from pairs: the zip holds `{n}_start` / `{n}_end` pictures; the prompt is the pairs' caption.
const kontextTrainer = falCall('fal-ai/flux-kontext-trainer', 'lora', (request) => ({
  image_data_url: zipOf(request),
  default_caption: promptOrNothing(request),
}));

const FACE_SWAP_GONE =
  'fal retired its face-swap endpoint (easel-ai/advanced-face-swap is deprecated) and lists no other face swap.';

export const FAL_IMAGE_MODELS: Readonly<Record<string, FalModelEntry>> = {
  Seedream: fal({ 'text-to-image': seedreamText, 'image-to-image': seedreamEdit, 'scene-image': seedreamEdit }),
  'Flux1.1Pro': fal({ 'text-to-image': fluxPro, 'scene-image': fluxPro }),
  'Flux1.1ProUltra': fal({ 'text-to-image': fluxUltra, 'scene-image': fluxUltra }),
  FluxKontextPro: fal(kontext('pro')),
  FluxKontextMax: fal(kontext('max')),
  FluxKontextDev: fal({ 'image-to-image': kontextDev, 'edit-image': kontextDev }),
  NanoBanana: fal({ 'text-to-image': nanoBananaText, 'image-to-image': nanoBananaEdit, 'edit-image': nanoBananaEdit, 'scene-image': nanoBananaEdit }),
  'OpenAI-Image-1': fal({ 'text-to-image': gptText, 'image-to-image': gptEdit, 'edit-image': gptEdit }),
  'StableDiffusion3.5': fal({ 'text-to-image': stableDiffusion }),
  RealisticVision: fal({ 'text-to-image': realisticVision }),
  LeonardoImage: { fal: false, reason: 'Leonardo.Ai models are not on fal.' },
  TunedFlux1: fal({ 'text-to-image': fluxLora }),
  FluxFinetuned: fal({ 'text-to-image': fluxLora, 'scene-image': fluxLora }),
  FluxKontextFinetuned: fal({ 'image-to-image': kontextLora }),
  Sketch: fal({ 'image-to-image': sketch }),
  Restructure: fal({ 'image-to-image': restructure }),
  Remake: fal({ reimagine: remake }),
  KlingTryOn: fal({ 'try-on': klingTryOn }),
  FashnTryOn: fal({ 'try-on': fashnTryOn }),
  KontextTryOn: fal({ 'try-on': kontextTryOn }),
  RemoveBackground: fal({ 'replace-bg': removeBackground }),
  ReplaceBackground: fal({ 'replace-bg': replaceBackground }),
  RemoveText: fal({ 'edit-image': removeText }),
  ExpandToAspectRatio: fal({ 'edit-image': expand }),
  LumaReframe: fal({ 'edit-image': lumaReframe }),
  Upscale: fal({ 'edit-image': upscale }),
  TopazUpscale: fal({ 'edit-image': topazUpscale }),
  MagicFaceSwap: { fal: false, reason: FACE_SWAP_GONE },
  EaselFaceSwap: { fal: false, reason: FACE_SWAP_GONE },
  SegmindFaceSwap: { fal: false, reason: `Segmind's models are not on fal; ${FACE_SWAP_GONE}` },
  ByteDanceRestyle: fal({ restyle: byteDanceRestyle }),
  RestyleBackground: fal({ restyle: restyleBackground }),
  ImageElements: fal({ 'image-elements': imageElements }),
  Review: { fal: false, reason: 'Review is priced in SPEC §9 but no tool offers it, so there is nothing to run.' },

  FluxFinetune: fal({ finetune: fluxTrainer }),
  FluxProFinetune: {
    fal: false,
    reason: 'fal runs FLUX Pro fine-tunes (flux-pro/v1.1-ultra-finetuned) but has no endpoint that trains one.',
  },
  FluxKontextFinetune: fal({ finetune: kontextTrainer }),
};
