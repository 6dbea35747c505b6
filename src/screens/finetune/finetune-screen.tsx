import { Container, Stack, Text } from '@mantine/core';
import { FinetunesScope } from '@/components/finetune/finetunes-context';
import { FINETUNE_TEXTS } from '@/config/finetune-texts';
import { FINETUNE_HELP_TOPICS, FinetuneForm } from '@/screens/finetune/finetune-form';
import { FinetuneModels } from '@/screens/finetune/finetune-models';
import { ToolHelpButton } from '@/screens/tools/tool-help-button';
import { ToolPageHeader } from '@/screens/tools/tool-page-header';


export interface FinetuneScreenProps {
  groupLabel: string;
  groupPath: string;
}

/**
 * LoRA Finetune (SPEC §2.3 AI Production): train a model on one's own pictures (the training is a
 * job in the jobs panel), and the person's trained models with their status and where to use them.
 */
export function FinetuneScreen({ groupLabel, groupPath }: FinetuneScreenProps) {
  return (
    <FinetunesScope>
      <Container size="md" py="xl">
        <Stack gap="lg">
          <ToolPageHeader
            title={FINETUNE_TEXTS.title}
            groupLabel={groupLabel}
            groupPath={groupPath}
            aside={<ToolHelpButton topicIndex={FINETUNE_HELP_TOPICS.page} />}
          >
            <Text size="sm" c="dimmed">
              {FINETUNE_TEXTS.intro}
            </Text>
          </ToolPageHeader>
          <FinetuneForm />
          <FinetuneModels />
        </Stack>
      </Container>
    </FinetunesScope>
  );
}
