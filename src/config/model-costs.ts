/**
 * Credits charged per generation, by model value (SPEC §9 "Model credit costs").
 * Motion models carry their own credits in `motion-models.ts`.
 */
export const MODEL_COSTS = {
  AttachAudio: 0,

  Seedream: 4,
  'Flux1.1Pro': 4,
  FluxKontextPro: 4,
  FluxKontextDev: 4,
  NanoBanana: 4,
  RemoveBackground: 4,
  ReplaceBackground: 4,
  LumaReframe: 4,
  'StableDiffusion3.5': 4,
  RealisticVision: 4,
  LeonardoImage: 4,
  RemoveText: 4,
  ExpandToAspectRatio: 4,
  Upscale: 4,
  MagicFaceSwap: 4,
  ByteDanceRestyle: 4,
  Text2Audio: 4,

  'Flux1.1ProUltra': 8,
  FluxKontextMax: 8,
  FluxFinetuned: 8,
  FluxKontextFinetuned: 8,
  Remake: 8,
  KlingTryOn: 8,
  FashnTryOn: 8,
  KontextTryOn: 8,
  RestyleBackground: 8,
  Sketch: 8,
  Restructure: 8,
  TunedFlux1: 8,
  Review: 8,
  TopazUpscale: 8,
  EaselFaceSwap: 8,
  Text2Speech: 8,
  Lyria2: 8,

  SegmindFaceSwap: 16,
  'OpenAI-Image-1': 16,
  ImageElements: 16,

  CropToAspectRatio: 20,
  SoundEffect: 20,

  LumaReframeVideo: 40,
  EnhanceVideo: 40,
  PikaEffects: 40,
  KlingEffects: 40,
  ViduEffects: 40,
  PixverseEffects: 40,
  LipSync: 40,
  AvatarLipSync: 40,
  ReplaceBackgroundVideo: 40,
  KlingProElements: 40,

  WanEffects: 80,

  FluxFinetune: 240,
  FluxProFinetune: 240,
  FluxKontextFinetune: 240,
  LumaModify: 240,
} as const satisfies Record<string, number>;

export type CostedModel = keyof typeof MODEL_COSTS;
