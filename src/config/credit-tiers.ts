/**
 * Credit tiers (SPEC §9): what each tier charges per generate type and which models belong to it.
 * Model lists keep SPEC's display names; SPEC's shorthand "Kling/Fashn/Kontext TryOn" and
 * "Pika/Kling/Vidu/Pixverse Effects" are written out as one name per model.
 */
export const CREDIT_TIER_IDS = ['tier-1', 'tier-2', 'tier-3', 'tier-4', 'tier-5', 'tier-6', 'open-tier'] as const;
export type CreditTierId = (typeof CREDIT_TIER_IDS)[number];

export interface TierCredits {
  Video: number;
  Image: number;
  Audio: number;
  Text: number;
  /** Only the open tier prices LoRA fine-tunes. */
  LORA?: number;
}

export interface CreditTier {
  id: CreditTierId;
  label: string;
  credits: TierCredits;
  image_tools: string[];
  video_tools: string[];
  audio_tools: string[];
  text_tools: string[];
  lora_tools: string[];
}

export const CREDIT_TIERS: readonly CreditTier[] = [
  {
    id: 'tier-1',
    label: 'Tier 1',
    credits: { Video: 20, Image: 4, Audio: 4, Text: 0 },
    image_tools: [
      'Seedream',
      'Flux1.1Pro',
      'FluxKontextPro',
      'FluxKontextDev',
      'NanoBanana',
      'RemoveBackground',
      'ReplaceBackground',
      'LumaReframe',
      'StableDiffusion3.5',
      'RealisticVision',
      'LeonardoImage',
      'Remove Text',
      'Expand Image',
      'Upscale Image',
      'Magic Face Swap',
      'ByteDanceRestyle',
    ],
    video_tools: ['PicoMotion', 'Crop Video', 'Sound Effect'],
    audio_tools: ['Text To Audio'],
    text_tools: [],
    lora_tools: [],
  },
  {
    id: 'tier-2',
    label: 'Tier 2',
    credits: { Video: 40, Image: 8, Audio: 8, Text: 0 },
    image_tools: [
      'Flux1.1ProUltra',
      'FluxKontextMax',
      'FluxFinetuned',
      'FluxKontextFinetuned',
      'Remake',
      'Kling TryOn',
      'Fashn TryOn',
      'Kontext TryOn',
      'RestyleBackground',
      'Sketch',
      'Restructure',
      'TunedFlux1',
      'Review',
      'Topaz Upscale Image',
      'Easel Face Swap',
    ],
    video_tools: [
      'KlingAI',
      'Luma AI',
      'RunwayML',
      'MinimaxHailuo',
      'Hunyuan',
      'Pixverse',
      'Wan',
      'Sora',
      'Try On Video',
      'Reframe Video',
      'Enhance',
      'Pika Effects',
      'Kling Effects',
      'Vidu Effects',
      'Pixverse Effects',
      'Lip Sync',
      'Avatar Lip Sync',
      'Replace Background Video',
      'Kling Elements Pro',
    ],
    audio_tools: ['Text To Speech', 'Text To Music'],
    text_tools: [],
    lora_tools: [],
  },
  {
    id: 'tier-3',
    label: 'Tier 3',
    credits: { Video: 80, Image: 16, Audio: 16, Text: 0 },
    image_tools: ['Segmind Face Swap', 'OpenAI Image 1', 'Image Elements'],
    video_tools: ['AutoT3', 'Luma Ray2', 'VeoFast without Audio', 'Seedance', 'Wan Effects'],
    audio_tools: [],
    text_tools: [],
    lora_tools: [],
  },
  {
    id: 'tier-4',
    label: 'Tier 4',
    credits: { Video: 160, Image: 32, Audio: 32, Text: 0 },
    image_tools: [],
    video_tools: ['Kling2', 'VeoFast with Audio', 'Veo without Audio'],
    audio_tools: [],
    text_tools: [],
    lora_tools: [],
  },
  {
    id: 'tier-5',
    label: 'Tier 5',
    credits: { Video: 240, Image: 48, Audio: 48, Text: 0 },
    image_tools: [],
    video_tools: ['Sora Pro', 'Luma Modify Video'],
    audio_tools: [],
    text_tools: [],
    lora_tools: [],
  },
  {
    id: 'tier-6',
    label: 'Tier 6',
    credits: { Video: 320, Image: 64, Audio: 64, Text: 0 },
    image_tools: [],
    video_tools: ['Veo with Audio'],
    audio_tools: [],
    text_tools: [],
    lora_tools: [],
  },
  {
    id: 'open-tier',
    label: 'Open Tier',
    credits: { Video: 400, Image: 80, Audio: 80, Text: 0, LORA: 240 },
    image_tools: [],
    video_tools: [],
    audio_tools: [],
    text_tools: [],
    lora_tools: ['FluxFinetune', 'FluxProFinetune', 'FluxKontextFinetune'],
  },
];

export function findCreditTier(id: CreditTierId): CreditTier {
  const tier = CREDIT_TIERS.find((candidate) => candidate.id === id);
  // Every id of CREDIT_TIER_IDS has a tier above; reaching this means the two lists drifted apart.
  if (!tier) throw new Error(`Unknown credit tier ${id}`);
  return tier;
}
