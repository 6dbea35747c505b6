import { Badge, Group, Paper, Stack, Text } from '@mantine/core';
import { JobSummary } from '@/components/jobs/job-summary';
import { phaseText, useJobView, type JobEntry } from '@/components/jobs/job-view';

/** The element id of a job's card on its tool page, for `?job=` scrolling. */
export const liveJobCardId = (localId: string): string => `live-${localId}`;

interface LiveJobCardProps {
  entry: JobEntry;
  onCancel: (localId: string) => void;
  /** `?job={mediaId}` names this job: the card is marked (as a finished result card would be). */
  highlighted?: boolean;
}

/** A job of this tool that is still running, from the jobs registry: phase, progress, cancel. */
export function LiveJobCard({ entry, onCancel, highlighted = false }: LiveJobCardProps) {
  const { view, canCancel } = useJobView(entry);
  if (!view.live) return null;
  const phase = phaseText(view);
  const prompt = entry.stored.fields?.prompt;
  return (
    <Paper
      id={liveJobCardId(view.localId)}
      withBorder
      p="md"
      radius="md"
      component="article"
      aria-label={`${view.toolTitle} job, ${phase}`}
      data-highlighted={highlighted || undefined}
      aria-current={highlighted ? 'true' : undefined}
      style={highlighted ? { outline: '3px solid var(--mantine-color-blue-5)', outlineOffset: 2 } : undefined}
    >
      <Stack gap="xs">
        <Group justify="space-between" gap="xs">
          <Text size="sm" fw={600}>
            {view.optionLabel}
          </Text>
          <Badge variant="light" style={{ textTransform: 'none' }}>
            {phase}
          </Badge>
        </Group>
        {typeof prompt === 'string' && prompt !== '' && (
          <Text size="sm" lineClamp={2}>
            {prompt}
          </Text>
        )}
        <JobSummary view={view} canCancel={canCancel} onCancel={onCancel} />
      </Stack>
    </Paper>
  );
}
