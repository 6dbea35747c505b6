import { FINETUNE_KINDS, isFinetuneKind } from '../../../src/config/finetune.ts';
import { learnFinetuneStyle } from './finetune-style.ts';
import { renderImageFiles } from './image-render.ts';
import type { FinetuneTrained, FinetuneTrainRequest } from './provider.ts';

/**
 * Training a LoRA fine-tune locally: learn the pictures' style (finetune-style.ts), then make the
 * trained model's preview with it, the way the model will be used: text-to-image of the prompt
 * (or the trigger word) for Flux, image-to-image of the first input picture for Kontext.
 */
export async function trainFinetune(request: FinetuneTrainRequest): Promise<FinetuneTrained> {
  const style = await learnFinetuneStyle(request);
  const kind = isFinetuneKind(request.kind) ? FINETUNE_KINDS[request.kind] : FINETUNE_KINDS.FluxFinetune;
  const prompt = request.prompt.trim() || `${request.triggerWord} portrait`.trim();
  const kontext = kind.value === 'FluxKontextFinetune';
  const firstInput = request.inputs[0];
  const preview = await renderImageFiles({
    tool: kontext ? 'image-to-image' : 'text-to-image',
    model: kind.baseModel,
    prompt,
    args: { finetune_style: style },
    inputs: kontext && firstInput ? [{ ...firstInput, field: 'image_url' }] : [],
    seed: request.seed,
    logo: false,
  });
  return { style: { ...style }, preview };
}
