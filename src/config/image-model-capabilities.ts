/**
 * What an image model can do beyond one picture from a prompt (issue 21 item 7, "what creators
 * expect of the best tools"): how many pictures one run may make, and whether it takes a negative
 * prompt. Pure data, read by the web app (which fields a tool page shows, the cost of a run) and by
 * the server (which fields a call keeps, the price it charges, what fal is sent).
 *
 * Where the numbers come from: each model's fal endpoints (server/src/render/fal/models-image.ts)
 * as `@fal-ai/client` types them from fal's OpenAPI schemas. Every endpoint of the models listed
 * under `IMAGES_PER_RUN` takes `num_images`; only Stable Diffusion 3.5 and Realistic Vision take
 * `negative_prompt` (https://fal.ai/models/fal-ai/stable-diffusion-v35-large/api,
 * https://fal.ai/models/fal-ai/realistic-vision/api). FLUX and the other instruction-following
 * models have no negative prompt, so their pages do not ask for one.
 */

/** The most pictures one run makes (the "Images" choice offers 1 to this). */
export const MAX_IMAGES_PER_RUN = 4;

/** The longest negative prompt kept (the server refuses a longer one with a 400). */
export const NEGATIVE_PROMPT_MAX_LENGTH = 1000;

/** Models whose every image call takes `num_images`: a run makes 1 to MAX_IMAGES_PER_RUN pictures. */
const IMAGES_PER_RUN: ReadonlySet<string> = new Set([
  'Seedream',
  'Flux1.1Pro',
  'Flux1.1ProUltra',
  'FluxKontextPro',
  'FluxKontextMax',
  'FluxKontextDev',
  'NanoBanana',
  'OpenAI-Image-1',
  'StableDiffusion3.5',
  'RealisticVision',
  'TunedFlux1',
  'FluxFinetuned',
  'FluxKontextFinetuned',
  'Sketch',
  'Restructure',
]);

/** Models that take a negative prompt (what the picture must not show). */
const NEGATIVE_PROMPT: ReadonlySet<string> = new Set(['StableDiffusion3.5', 'RealisticVision']);

/** How many pictures one run of this model may make: MAX_IMAGES_PER_RUN, or 1 for a model that makes one. */
export const maxImagesFor = (model: string | undefined): number =>
  model !== undefined && IMAGES_PER_RUN.has(model) ? MAX_IMAGES_PER_RUN : 1;

/** Whether this model takes a negative prompt. */
export const takesNegativePrompt = (model: string | undefined): boolean => model !== undefined && NEGATIVE_PROMPT.has(model);

/** A run's price: the model's credits for each picture it makes. */
export const runPrice = (modelCredits: number, images: number): number => modelCredits * Math.max(1, images);
