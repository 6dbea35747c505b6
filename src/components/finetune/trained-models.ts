import { useSelector } from '@xstate/react';
import { useMemo } from 'react';
import { useFinetunesRef } from '@/components/finetune/finetunes-context';
import type { ToolSlug } from '@/config/tools';
import { selectFinetunes, trainedModelChoices } from '@/machines/finetunes/finetunes.selectors';

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

/**
 * The person's ready trained models for this tool page, newest first: those whose kind is used on
 * the tool (FINETUNE_KINDS[kind].tools), labelled "{name} (your model)" and costing their base
 * model's credits. The same array while the list does not change; empty when signed out, while
 * the list loads, or where no FinetunesProvider is mounted.
 */
export function useTrainedModelOptions(tool: ToolSlug): TrainedModelOption[] {
  const finetunes = useFinetunesRef();
  const items = useSelector(finetunes ?? undefined, selectFinetunes);
  return useMemo(() => trainedModelChoices(items, tool), [items, tool]);
}
