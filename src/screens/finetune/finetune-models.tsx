import { Anchor, Badge, Button, Group, Image, Loader, Paper, Progress, Stack, Text, Title } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { Link } from 'react-router-dom';
import { useFinetunesRef } from '@/components/finetune/finetunes-context';
import { JobsActorContext } from '@/components/jobs/jobs-context';
import { FINETUNE_KINDS, isFinetuneKind } from '@/config/finetune';
import { FINETUNE_TEXTS } from '@/config/finetune-texts';
import { ROUTES } from '@/config/routes';
import type { Finetune } from '@/machines/finetunes/finetunes.machine';
import {
  finetuneToolsOf,
  selectFinetuneJobs,
  selectFinetunes,
  selectFinetunesError,
  selectFinetunesStatus,
  selectOptionalJobProgress,
  trainedModelValue,
} from '@/machines/finetunes/finetunes.selectors';

const STATUS_COLORS: Readonly<Record<Finetune['status'], string>> = { training: 'blue', ready: 'green', failed: 'red' };

/** The tool page a ready model is used on, with the model chosen (`?model=finetune:{id}`). */
function linksOf(finetune: Finetune): { label: string; to: string }[] {
  const model = `?model=${encodeURIComponent(trainedModelValue(finetune.id))}`;
  return finetuneToolsOf(finetune.option).map((tool) =>
    tool === 'image-to-image'
      ? { label: FINETUNE_TEXTS.useInImageToImage, to: `${ROUTES.aiImage.imageToImage}${model}` }
      : { label: FINETUNE_TEXTS.useInTextToImage, to: `${ROUTES.aiImage.textToImage}${model}` },
  );
}

/** "Training…", with the job's progress while this tab's jobs registry follows it. */
function TrainingStatus({ mediaId }: { mediaId: string }) {
  const jobs = JobsActorContext.useSelector(selectFinetuneJobs);
  const ref = jobs.find((entry) => entry.stored.mediaId === mediaId && entry.stored.outcome === null)?.ref ?? undefined;
  const progress = useSelector(ref, selectOptionalJobProgress);
  return (
    <Stack gap={4}>
      <Badge color={STATUS_COLORS.training} variant="light">
        {progress === null ? FINETUNE_TEXTS.training : FINETUNE_TEXTS.trainingProgress(progress)}
      </Badge>
      {progress !== null && <Progress value={progress} aria-label={FINETUNE_TEXTS.trainingProgress(progress)} size="sm" />}
    </Stack>
  );
}

function FinetuneCard({ finetune }: { finetune: Finetune }) {
  const kind = isFinetuneKind(finetune.option) ? FINETUNE_KINDS[finetune.option] : null;
  const links = linksOf(finetune);
  return (
    <Paper component="article" withBorder p="md" radius="md" aria-label={finetune.name}>
      <Group align="flex-start" wrap="nowrap" gap="md">
        {finetune.preview_url && (
          <Image src={finetune.preview_url} alt={FINETUNE_TEXTS.previewAlt(finetune.name)} w={96} h={96} fit="cover" radius="sm" />
        )}
        <Stack gap={6} style={{ flex: 1, minWidth: 0 }}>
          <Group justify="space-between" align="flex-start" wrap="nowrap">
            <Stack gap={0} style={{ minWidth: 0 }}>
              <Title order={3} size="h5">
                {finetune.name}
              </Title>
              <Text size="sm" c="dimmed">
                {kind?.label ?? finetune.option} · {FINETUNE_TEXTS.imageCount(finetune.image_count, Boolean(kind?.pairs))}
              </Text>
            </Stack>
            {finetune.status === 'training' ? (
              <TrainingStatus mediaId={finetune.media_id} />
            ) : (
              <Badge color={STATUS_COLORS[finetune.status]} variant="light">
                {finetune.status === 'ready' ? FINETUNE_TEXTS.ready : FINETUNE_TEXTS.failed}
              </Badge>
            )}
          </Group>
          {finetune.trigger_word && <Text size="sm">{FINETUNE_TEXTS.triggerWordShown(finetune.trigger_word)}</Text>}
          {finetune.status === 'ready' && (
            <Group gap="md">
              {links.map((link) => (
                <Anchor key={link.to} component={Link} to={link.to} size="sm">
                  {link.label}
                </Anchor>
              ))}
            </Group>
          )}
        </Stack>
      </Group>
    </Paper>
  );
}

/** "Your models": the person's trained models, newest first, with their status and how to use them. */
export function FinetuneModels() {
  const finetunes = useFinetunesRef() ?? undefined;
  const status = useSelector(finetunes, selectFinetunesStatus);
  const items = useSelector(finetunes, selectFinetunes);
  const error = useSelector(finetunes, selectFinetunesError);

  return (
    <Stack gap="sm" component="section" aria-label={FINETUNE_TEXTS.modelsHeading}>
      <Title order={2} size="h3">
        {FINETUNE_TEXTS.modelsHeading}
      </Title>
      {status === 'signedOut' ? (
        <Text c="dimmed">{FINETUNE_TEXTS.modelsSignedOut}</Text>
      ) : (
        <>
          {status === 'failed' && error && (
            <Group gap="sm">
              <Text c="red" role="alert">
                {error}
              </Text>
              <Button variant="default" size="xs" onClick={() => finetunes?.send({ type: 'finetunes.refresh' })}>
                {FINETUNE_TEXTS.modelsRetry}
              </Button>
            </Group>
          )}
          {status === 'loading' && items.length === 0 && (
            <Group gap="xs">
              <Loader size="xs" />
              <Text c="dimmed">{FINETUNE_TEXTS.modelsLoading}</Text>
            </Group>
          )}
          {status === 'ready' && items.length === 0 && <Text c="dimmed">{FINETUNE_TEXTS.modelsEmpty}</Text>}
          {items.map((finetune) => (
            <FinetuneCard key={finetune.id} finetune={finetune} />
          ))}
        </>
      )}
    </Stack>
  );
}
