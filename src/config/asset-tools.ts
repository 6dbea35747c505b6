import { VIDEO_EFFECT_FAMILIES, type EffectFamily, type VideoEffect } from './effects';
import type { Option } from './enums';
import { MODEL_COSTS, type CostedModel } from './model-costs';
import type { Flag, GenerateType, ToolSlug } from './tools';
import { VOICES } from './voices';

/** A model a tool page offers (SPEC §3 "Model / tool option"). */
export interface ModelOption {
  value: string;
  label: string;
  required_credits: number;
  /**
   * The tool pages that list this model. SPEC §3 names the slugs with "e.g.", so the server may
   * send slugs this build does not know (`ToolSlug` are the known ones); such a slug is kept and
   * simply matches no page.
   */
  available_tools: string[];
  generate_type: GenerateType;
  active: Flag;
  text_prompt?: Flag;
  first_frame?: Flag;
  end_frame?: Flag;
  available_effects?: VideoEffect[];
  available_voices?: Option[];
}

type Inputs = Pick<ModelOption, 'text_prompt' | 'first_frame' | 'end_frame'>;

// Credits always come from MODEL_COSTS so a price is written once.
const option = (
  value: CostedModel,
  label: string,
  generate_type: GenerateType,
  available_tools: ToolSlug[],
  inputs: Inputs,
  extra: Pick<ModelOption, 'available_effects' | 'available_voices'> = {},
): ModelOption => ({
  value,
  label,
  required_credits: MODEL_COSTS[value],
  available_tools,
  generate_type,
  active: 1,
  ...inputs,
  ...extra,
});

const textOnly: Inputs = { text_prompt: 1, first_frame: 0, end_frame: 0 };
const textAndImage: Inputs = { text_prompt: 1, first_frame: 1, end_frame: 0 };
const imageOnly: Inputs = { text_prompt: 0, first_frame: 1, end_frame: 0 };
/** Two pictures: the subject (first frame) and a second input such as clothes, a face or a background. */
const twoImages: Inputs = { text_prompt: 0, first_frame: 1, end_frame: 1 };

const voices = (): Option[] => VOICES.map((voice) => ({ ...voice }));

const effectFamily = (family: EffectFamily): ModelOption => {
  const info = VIDEO_EFFECT_FAMILIES[family];
  const needsEndFrame = info.effects.some((item) => item.end_frame === 1);
  return option(
    family,
    info.label,
    'Video',
    ['video-effects'],
    // Effects take only a first frame; the end frame is asked for per effect (Kling, Vidu).
    { text_prompt: 0, first_frame: 1, end_frame: needsEndFrame ? 1 : 0 },
    { available_effects: info.effects.map((item) => ({ ...item })) },
  );
};

export const IMAGE_MODEL_OPTIONS: readonly ModelOption[] = [
  option('Seedream', 'Seedream', 'Image', ['text-to-image', 'image-to-image', 'scene-image'], textAndImage),
  option('Flux1.1Pro', 'Flux 1.1 Pro', 'Image', ['text-to-image', 'scene-image'], textOnly),
  option('Flux1.1ProUltra', 'Flux 1.1 Pro Ultra', 'Image', ['text-to-image', 'scene-image'], textOnly),
  option('FluxKontextPro', 'Flux Kontext Pro', 'Image', ['text-to-image', 'image-to-image', 'edit-image', 'scene-image'], textAndImage),
  option('FluxKontextMax', 'Flux Kontext Max', 'Image', ['text-to-image', 'image-to-image', 'edit-image', 'scene-image'], textAndImage),
  option('FluxKontextDev', 'Flux Kontext Dev', 'Image', ['image-to-image', 'edit-image'], textAndImage),
  option('NanoBanana', 'Nano Banana', 'Image', ['text-to-image', 'image-to-image', 'edit-image', 'scene-image'], textAndImage),
  option('OpenAI-Image-1', 'OpenAI Image 1', 'Image', ['text-to-image', 'image-to-image', 'edit-image'], textAndImage),
  option('StableDiffusion3.5', 'Stable Diffusion 3.5', 'Image', ['text-to-image'], textOnly),
  option('RealisticVision', 'Realistic Vision', 'Image', ['text-to-image'], textOnly),
  option('LeonardoImage', 'Leonardo Image', 'Image', ['text-to-image'], textOnly),
  option('TunedFlux1', 'Tuned Flux 1', 'Image', ['text-to-image'], textOnly),
  option('FluxFinetuned', 'Flux Fine-tuned', 'Image', ['text-to-image', 'scene-image'], textOnly),
  option('FluxKontextFinetuned', 'Flux Kontext Fine-tuned', 'Image', ['image-to-image'], textAndImage),
  option('Sketch', 'Sketch', 'Image', ['image-to-image'], textAndImage),
  option('Restructure', 'Restructure', 'Image', ['image-to-image'], textAndImage),
  option('Remake', 'Remake', 'Image', ['reimagine'], textAndImage),
  option('KlingTryOn', 'Kling Try On', 'Image', ['try-on'], twoImages),
  option('FashnTryOn', 'Fashn Try On', 'Image', ['try-on'], twoImages),
  option('KontextTryOn', 'Kontext Try On', 'Image', ['try-on'], twoImages),
  option('RemoveBackground', 'Remove Background', 'Image', ['replace-bg'], imageOnly),
  option('ReplaceBackground', 'Replace Background', 'Image', ['replace-bg'], { text_prompt: 1, first_frame: 1, end_frame: 1 }),
  option('RemoveText', 'Remove Text', 'Image', ['edit-image'], imageOnly),
  option('ExpandToAspectRatio', 'Expand Image', 'Image', ['edit-image'], imageOnly),
  option('LumaReframe', 'Luma Reframe', 'Image', ['edit-image'], textAndImage),
  option('Upscale', 'Upscale Image', 'Image', ['edit-image'], imageOnly),
  option('TopazUpscale', 'Topaz Upscale Image', 'Image', ['edit-image'], imageOnly),
  option('MagicFaceSwap', 'Magic Face Swap', 'Image', ['face-swap'], twoImages),
  option('EaselFaceSwap', 'Easel Face Swap', 'Image', ['face-swap'], twoImages),
  option('SegmindFaceSwap', 'Segmind Face Swap', 'Image', ['face-swap'], twoImages),
  option('ByteDanceRestyle', 'ByteDance Restyle', 'Image', ['restyle'], textAndImage),
  option('RestyleBackground', 'Restyle Background', 'Image', ['restyle'], textAndImage),
  option('ImageElements', 'Image Elements', 'Image', ['image-elements'], textAndImage),
];

export const AUDIO_MODEL_OPTIONS: readonly ModelOption[] = [
  option('Text2Speech', 'Text To Speech', 'Audio', ['text-to-speech'], textOnly, { available_voices: voices() }),
  option('Text2Audio', 'Sound Effects', 'Audio', ['text-to-audio'], textOnly),
  option('Lyria2', 'Text To Music', 'Audio', ['text-to-music'], textOnly),
];

export const VIDEO_EDIT_OPTIONS: readonly ModelOption[] = [
  option('CropToAspectRatio', 'Crop Video', 'Video', ['edit-video'], { text_prompt: 0, first_frame: 0, end_frame: 0 }),
  option('EnhanceVideo', 'Enhance', 'Video', ['edit-video'], { text_prompt: 0, first_frame: 0, end_frame: 0 }),
  option('SoundEffect', 'Sound Effect', 'Video', ['edit-video'], { text_prompt: 1, first_frame: 0, end_frame: 0 }),
  option('LumaReframeVideo', 'Reframe Video', 'Video', ['edit-video'], { text_prompt: 1, first_frame: 0, end_frame: 0 }),
  option('AttachAudio', 'Attach Audio', 'Video', ['edit-video'], { text_prompt: 0, first_frame: 0, end_frame: 0 }),
];

export const VIDEO_EFFECT_OPTIONS: readonly ModelOption[] = (
  ['PikaEffects', 'WanEffects', 'KlingEffects', 'ViduEffects', 'PixverseEffects'] as const
).map(effectFamily);

export const VIDEO_TOOL_OPTIONS: readonly ModelOption[] = [
  // Lip sync speaks either an uploaded audio or a prompt in one of the voices.
  option('LipSync', 'Lip Sync', 'Video', ['lip-sync'], imageOnly, { available_voices: voices() }),
  option('AvatarLipSync', 'Avatar Lip Sync', 'Video', ['lip-sync'], imageOnly, { available_voices: voices() }),
  option('ReplaceBackgroundVideo', 'Replace Background Video', 'Video', ['replace-background-video'], imageOnly),
  option('LumaModify', 'Luma Modify Video', 'Video', ['modify-video'], textAndImage),
  option('KlingProElements', 'Kling Elements Pro', 'Video', ['video-elements'], textAndImage),
];

export const FINETUNE_OPTIONS: readonly ModelOption[] = [
  option('FluxFinetune', 'Flux Fine-tune', 'LORA', ['finetune'], textAndImage),
  option('FluxProFinetune', 'Flux Pro Fine-tune', 'LORA', ['finetune'], textAndImage),
  option('FluxKontextFinetune', 'Flux Kontext Fine-tune', 'LORA', ['finetune'], textAndImage),
];

/** Every model option the app offers on a tool page, motion models aside. */
export const ASSET_TOOLS: readonly ModelOption[] = [
  ...IMAGE_MODEL_OPTIONS,
  ...AUDIO_MODEL_OPTIONS,
  ...VIDEO_EDIT_OPTIONS,
  ...VIDEO_EFFECT_OPTIONS,
  ...VIDEO_TOOL_OPTIONS,
  ...FINETUNE_OPTIONS,
];

/** The options one tool page lists, in order. */
export function optionsForTool(options: readonly ModelOption[], tool: ToolSlug): ModelOption[] {
  return options.filter((candidate) => candidate.active === 1 && candidate.available_tools.includes(tool));
}
