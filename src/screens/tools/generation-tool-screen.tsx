import { Anchor, Container, Stack } from '@mantine/core';
import { useMemo } from 'react';
import { Link } from 'react-router-dom';
import { AppConfigActorContext } from '@/components/app-config/app-config-context';
import { FinetunesScope } from '@/components/finetune/finetunes-context';
import { ToolResults } from '@/components/media/tool-results';
import { SessionActorContext } from '@/components/session/session-context';
import { FINETUNE_KIND_LIST } from '@/config/finetune';
import type { GenerationToolSpec } from '@/config/generation-tools';
import { TOOL_TEXTS } from '@/config/job-texts';
import { ROUTES } from '@/config/routes';
import { selectAssetTools } from '@/machines/app-config/app-config.selectors';
import { selectCurrentUserId } from '@/machines/session/session.selectors';
import { GenerationToolForm } from '@/screens/tools/generation-tool-form';
import { ToolHelpButton } from '@/screens/tools/tool-help-button';
import { ToolPageHeader } from '@/screens/tools/tool-page-header';

export interface GenerationToolScreenProps {
  spec: GenerationToolSpec;
  groupLabel: string;
  groupPath: string;
}

/** The tools whose model list also offers the person's trained models (LoRA Finetune). */
const takesTrainedModels = (spec: GenerationToolSpec): boolean =>
  FINETUNE_KIND_LIST.some((kind) => (kind.tools as readonly string[]).includes(spec.slug));

/**
 * A generation tool page (SPEC §2.8): the tool's help, its form and its results, newest first.
 * One screen serves every image, audio and video editing tool; the GenerationToolSpec says what
 * each asks for.
 */
export function GenerationToolScreen({ spec, groupLabel, groupPath }: GenerationToolScreenProps) {
  const userId = SessionActorContext.useSelector(selectCurrentUserId);
  const models = AppConfigActorContext.useSelector(selectAssetTools);
  // Results name their model as the model list does ("Flux 1.1 Pro"), not by its value.
  const modelLabels = useMemo(() => new Map(models.map((model) => [model.value, model.label])), [models]);
  return (
    <Container size="md" py="xl">
      <Stack gap="lg">
        <ToolPageHeader
          title={spec.title}
          groupLabel={groupLabel}
          groupPath={groupPath}
          aside={<ToolHelpButton topicIndex={spec.helpTopic} />}
        >
          {spec.slug === 'image-to-image' && (
            <Anchor component={Link} to={ROUTES.aiImage.reimagine} size="sm">
              {TOOL_TEXTS.reimagineLink}
            </Anchor>
          )}
        </ToolPageHeader>
        {takesTrainedModels(spec) ? (
          // The app's trained-models list, or one for this page where none is mounted.
          <FinetunesScope>
            <GenerationToolForm spec={spec} />
          </FinetunesScope>
        ) : (
          <GenerationToolForm spec={spec} />
        )}
        {/* A new person (or none) gets their own history. */}
        <ToolResults key={userId ?? 'signed-out'} spec={spec} modelLabels={modelLabels} />
      </Stack>
    </Container>
  );
}
