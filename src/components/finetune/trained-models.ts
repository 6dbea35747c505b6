import type { ToolSlug } from '@/config/tools';

/**
 * A model the person trained (LoRA Finetune), offered on the image tools that accept it: chosen
 * like any model, sent as `option` = its base model plus `finetune_id` (config/finetune.ts).
 */
export interface TrainedModelOption {
  /** `finetune:{id}`: unique beside the app-config models' values. */
  value: string;
  label: string;
  required_credits: number;
  /** The SPEC model it runs through (FluxFinetuned / FluxKontextFinetuned). */
  baseModel: string;
  finetuneId: string;
}

/** The person's ready trained models for this tool page (issue 5: to be written). */
export function useTrainedModelOptions(_tool: ToolSlug): TrainedModelOption[] {
  return [];
}
