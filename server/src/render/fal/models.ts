import { MODEL_COSTS } from '../../../../src/config/model-costs.ts';
import { MOTION_MODELS } from '../../../../src/config/motion-models.ts';
import { falCall, pictureAt, urlOf } from './models-shared.ts';
import type { FalCall, FalModelEntry, FalRequest } from './types.ts';

/**
 * Kinora's fal.ai model map (issue 16): for every model Kinora sells (SPEC §9: MODEL_COSTS keys
 * and MOTION_MODELS values), the fal endpoint that runs it on each of its tools and how Kinora's
 * request becomes fal's input, or why fal cannot run it. Parallax is not here: it stays on the
 * local 3D pipeline. `scripts/fal-models-table.ts` prints this map as the README's table.
 */

const TODO = 'Not mapped yet (fal mapping in progress).';

/** The LLM the prompt helper and the AI Story writer use through fal's OpenRouter router. */
const TEXT_MODEL = 'google/gemini-2.5-flash';

const argText = (request: FalRequest, key: string): string | undefined => {
  const value = request.args[key];
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
};

/**
 * The prompt helper (SuggestPrompt, RefinePrompt, InspireMe) and the AI Story board writer: a
 * text LLM. `fal-ai/any-llm` is deprecated on fal; `openrouter/router` is its successor and takes
 * the same `prompt` / `system_prompt` / `model`, answering `output`.
 */
export const FAL_TEXT_CALL: FalCall = falCall('openrouter/router', 'https://fal.ai/models/openrouter/router/vision', 'text', (request) => ({
  model: TEXT_MODEL,
  prompt: request.prompt,
  system_prompt: argText(request, 'system_prompt'),
}));

/** Image2Prompt's "guess from picture": a vision LLM over the first input picture. */
export const FAL_VISION_CALL: FalCall = falCall(
  'openrouter/router/vision',
  'https://fal.ai/models/openrouter/router/vision',
  'text',
  (request) => {
    const picture = pictureAt(request, 0) ?? urlOf(request, 'image_url', 'image_urls');
    return {
      model: TEXT_MODEL,
      prompt: request.prompt,
      system_prompt: argText(request, 'system_prompt'),
      image_urls: picture === undefined ? [] : [picture],
    };
  },
);

const pending = (): FalModelEntry => ({ fal: false, reason: TODO });

/** Every model value Kinora sells, with its fal entry. */
export const FAL_MODELS: Readonly<Record<string, FalModelEntry>> = Object.fromEntries([
  ...Object.keys(MODEL_COSTS).map((model) => [model, pending()] as const),
  ...MOTION_MODELS.map((model) => [model.value, pending()] as const),
]);

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
