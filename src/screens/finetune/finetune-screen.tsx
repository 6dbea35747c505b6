import { ToolPlaceholderScreen } from '@/screens/tools/tool-placeholder-screen';

export interface FinetuneScreenProps {
  groupLabel: string;
  groupPath: string;
}

/** LoRA Finetune (issue 5): to be written. */
export function FinetuneScreen({ groupLabel, groupPath }: FinetuneScreenProps) {
  return <ToolPlaceholderScreen title="LoRA Finetune" groupLabel={groupLabel} groupPath={groupPath} />;
}
