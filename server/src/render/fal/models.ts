import { FAL_AUDIO_MODELS } from './models-audio.ts';
import { FAL_IMAGE_MODELS } from './models-image.ts';
import { FAL_MOTION_MODELS } from './models-motion.ts';
import { falCall, need, pictureAt, textArg } from './models-shared.ts';
import { FAL_VIDEO_TOOL_MODELS } from './models-video.ts';
import type { FalCall, FalModelEntry } from './types.ts';

/**
 * Kinora's fal.ai model map (issue 16): for every model Kinora sells (SPEC §9: MODEL_COSTS keys
 * and MOTION_MODELS values), the fal endpoint that runs it on each of its tools and how Kinora's
 * request becomes fal's input, or why fal cannot run it. Parallax is not here: it stays on the
 * local 3D pipeline. `scripts/fal-models-table.ts` prints this map as the README's table.
 *
 * Where the endpoints come from: fal's model pages (https://fal.ai/models/<endpoint>/api, each
 * call's `docs`) and their OpenAPI schemas as `@fal-ai/client` ships them typed (EndpointTypeMap),
 * which type-checks every input below. The map is split by kind: models-image.ts (image tools and
 * LoRA trainers), models-audio.ts, models-video.ts (video tools and effects), models-motion.ts.
 */

/** The LLM the prompt helper and the AI Story writer use through fal's OpenRouter router. */
const TEXT_MODEL = 'google/gemini-2.5-flash';

/**
 * The prompt helper (SuggestPrompt, RefinePrompt, InspireMe) and the AI Story board writer: a
 * text LLM. `fal-ai/any-llm` is deprecated on fal; `openrouter/router` is its successor and takes
 * the same `prompt` / `system_prompt` / `model`, answering `output`.
 */
export const FAL_TEXT_CALL: FalCall = falCall('openrouter/router', 'text', (request) => ({
  model: TEXT_MODEL,
  prompt: request.prompt,
  system_prompt: textArg(request, 'system_prompt'),
}));

/** Image2Prompt's "guess from picture": a vision LLM over the first input picture. */
export const FAL_VISION_CALL: FalCall = falCall('openrouter/router/vision', 'text', (request) => {
  const picture = request.files[0]?.url ?? pictureAt(request, 0);
  return {
    model: TEXT_MODEL,
    prompt: request.prompt.trim() === '' ? 'Describe this picture as a prompt that would make it.' : request.prompt,
    system_prompt: textArg(request, 'system_prompt'),
    image_urls: [need(picture, 'the picture to describe')],
  };
});

/** Every model value Kinora sells, with its fal entry. */
export const FAL_MODELS: Readonly<Record<string, FalModelEntry>> = {
  ...FAL_IMAGE_MODELS,
  ...FAL_AUDIO_MODELS,
  ...FAL_VIDEO_TOOL_MODELS,
  ...FAL_MOTION_MODELS,
};

/** The call that runs `model` for this call key, or why there is none. */
export function falCallFor(model: string, key: string): FalCall | { reason: string } {
  const entry = FAL_MODELS[model];
  if (!entry) return { reason: `${model} is not a model Kinora sells.` };
  if (!entry.fal) return { reason: entry.reason };
  return entry.calls[key] ?? { reason: `fal has no call for ${model} on ${key}.` };
}

/** How much of the catalogue runs on fal, and why the rest does not. */
export function falCoverage(): { total: number; mapped: number; inactive: { model: string; reason: string }[] } {
  const entries = Object.entries(FAL_MODELS);
  const inactive = entries.flatMap(([model, entry]) => (entry.fal ? [] : [{ model, reason: entry.reason }]));
  return { total: entries.length, mapped: entries.length - inactive.length, inactive };
}
