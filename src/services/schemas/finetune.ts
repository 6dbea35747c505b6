import { z } from 'zod';
// Relative imports: the local server loads this file under tsx and imports it by path.
import { FINETUNE_KIND_LIST } from '../../config/finetune';

/**
 * A trained model (Kinora's `GET finetune`; `POST finetune` answers with the training job, a media
 * item of tool `finetune`). `status` follows the training job's: it can be used once `ready`.
 */
export const finetuneSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** The fine-tune kind (SPEC §9 LoRA models). */
  option: z.enum(FINETUNE_KIND_LIST.map((kind) => kind.value) as [string, ...string[]]),
  /** The model option it is used through on the image tools (FluxFinetuned / FluxKontextFinetuned). */
  base_model: z.string(),
  trigger_word: z.string().default(''),
  status: z.enum(['training', 'ready', 'failed']),
  /** The training job (media item) to follow. */
  media_id: z.string(),
  /** A sample made with the trained model, once ready (signed URL). */
  preview_url: z.string().nullable().default(null),
  image_count: z.number().int().min(0),
  created_at: z.string(),
});
export type Finetune = z.infer<typeof finetuneSchema>;

export const finetuneListSchema = z.object({ items: z.array(finetuneSchema) });
