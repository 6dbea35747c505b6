import { Anchor, Badge, Group, Paper, Progress, SimpleGrid, Stack, Text } from '@mantine/core';
import { TOOL_TEXTS, JOB_TEXTS } from '@/config/job-texts';
import type { MediaKind } from '@/config/enums';
import { labelJobHistory, readJobHistory } from '@/lib/job-history';
import { classifyStatus } from '@/lib/job-status';
import { stringArg } from '@/lib/records';
import { resultLabel, type ResultLabelKind } from '@/lib/result-labels';
import type { selectHistory } from '@/machines/tool-history/tool-history.selectors';

export type MediaItem = ReturnType<typeof selectHistory>[number];

const LABEL_KIND: Readonly<Record<MediaKind, ResultLabelKind>> = { image: 'image', video: 'video', audio: 'audio' };

export interface ShownResult {
  label: string;
  url: string;
  thumbnailUrl: string | null;
}


/**
 * The results of one media item, each with its SPEC §3 label "{run}.{index}.{option}" read from
 * the job history. The files shown are the item's own (signed, fresh) URLs when it has them; the
 * history's URLs otherwise.
 */
export function shownResults(media: MediaItem): ShownResult[] {
  // An upload is not a generation: no run, no model; its file name says what it is.
  if (media.tool.startsWith('upload-')) {
    const name = media.files.find((file) => file.role === 'original')?.name ?? stringArg(media.args, 'filename') ?? media.id;
    return media.items
      .filter((item) => item.url)
      .map((item) => ({ label: name, url: item.url ?? '', thumbnailUrl: item.thumbnail_url }));
  }
  const kind = LABEL_KIND[media.kind];
  const labelled = labelJobHistory(readJobHistory(media), kind);
  const files = media.items.filter((item) => item.url);
  if (files.length === 0) return labelled.map(({ label, url }) => ({ label, url, thumbnailUrl: null }));
  const args = {
    option: stringArg(media.args, 'option') ?? media.option,
    aspect_ratio: stringArg(media.args, 'aspect_ratio'),
    voice: stringArg(media.args, 'voice'),
  };
  return files.map((item, position) => ({
    label: labelled[position]?.label ?? resultLabel({ run: 1, index: position + 1, kind, args }),
    url: item.url ?? '',
    thumbnailUrl: item.thumbnail_url,
  }));
}

function ResultFile({ kind, result, prompt }: { kind: MediaKind; result: ShownResult; prompt: string | undefined }) {
  const description = prompt ? `${result.label}: ${prompt}` : result.label;
  return (
    <Stack gap={4}>
      {kind === 'image' ? (
        <a href={result.url} target="_blank" rel="noreferrer">
          <img
            src={result.thumbnailUrl ?? result.url}
            alt={description}
            loading="lazy"
            style={{ width: '100%', maxHeight: 320, objectFit: 'contain', borderRadius: 6, display: 'block' }}
          />
        </a>
      ) : kind === 'audio' ? (
        <audio controls preload="metadata" src={result.url} aria-label={description} style={{ width: '100%' }} />
      ) : (
        <video controls preload="metadata" src={result.url} aria-label={description} style={{ width: '100%' }} />
      )}
      <Group justify="space-between" gap="xs">
        <Text size="xs" ff="monospace">
          {result.label}
        </Text>
        <Anchor href={result.url} download size="xs" aria-label={`${TOOL_TEXTS.download} ${result.label}`}>
          {TOOL_TEXTS.download}
        </Anchor>
      </Group>
    </Stack>
  );
}

/** One earlier job of this tool: its results, or why it has none (and whether it was refunded). */
export interface MediaResultCardProps {
  media: MediaItem;
  highlighted: boolean;
  /** The model's label from the model list; its value is shown when the list does not know it. */
  modelLabel?: string;
}

export function MediaResultCard({ media, highlighted, modelLabel }: MediaResultCardProps) {
  const outcome = classifyStatus(media.status);
  const prompt = stringArg(media.args, 'prompt');
  const results = outcome === 'success' ? shownResults(media) : [];
  const created = new Date(media.created_at);
  return (
    <Paper
      id={`result-${media.id}`}
      component="article"
      withBorder
      p="md"
      radius="md"
      data-highlighted={highlighted || undefined}
      aria-current={highlighted ? 'true' : undefined}
      style={highlighted ? { outline: '3px solid var(--mantine-color-blue-5)', outlineOffset: 2 } : undefined}
    >
      <Stack gap="xs">
        <Group justify="space-between" gap="xs">
          <Text size="sm" fw={600}>
            {modelLabel ?? media.option ?? stringArg(media.args, 'option') ?? ''}
          </Text>
          <Text size="xs" c="dimmed" component="time" dateTime={media.created_at}>
            {Number.isNaN(created.getTime()) ? media.created_at : created.toLocaleString()}
          </Text>
        </Group>
        {prompt && (
          <Text size="sm" lineClamp={3}>
            {prompt}
          </Text>
        )}
        {outcome === 'success' && (
          <SimpleGrid cols={{ base: 1, sm: media.kind === 'image' ? 2 : 1 }} spacing="sm">
            {results.map((result) => (
              <ResultFile key={`${result.label}-${result.url}`} kind={media.kind} result={result} prompt={prompt} />
            ))}
          </SimpleGrid>
        )}
        {outcome === 'processing' && (
          <Stack gap={4}>
            <Text size="sm">{JOB_TEXTS.phase.processing(media.progress, null)}</Text>
            <Progress value={media.progress} aria-label={`${media.option ?? ''} progress`} />
          </Stack>
        )}
        {(outcome === 'failed' || outcome === 'nsfw' || outcome === 'cancelled') && (
          <Group gap="xs">
            <Badge color={outcome === 'cancelled' ? 'gray' : outcome === 'nsfw' ? 'orange' : 'red'} variant="light" style={{ textTransform: 'none' }}>
              {JOB_TEXTS.phase[outcome](media.progress, media.error)}
            </Badge>
            {/* A job that cost nothing (a developer's, a free model) has nothing to refund. */}
            {(media.refunded || media.cost > 0) && (
              <Text size="xs" c={media.refunded ? 'teal' : 'dimmed'}>
                {media.refunded ? JOB_TEXTS.refunded(media.cost) : TOOL_TEXTS.notRefunded}
              </Text>
            )}
          </Group>
        )}
      </Stack>
    </Paper>
  );
}
