import { Button, Group, Progress, Stack, Text } from '@mantine/core';
import { JOB_TEXTS } from '@/config/job-texts';
import { formatElapsed, useNow } from '@/components/jobs/elapsed';
import type { JobView } from '@/components/jobs/job-view';

/** Elapsed time: ticking each second while the job runs, the total once it has ended. */
function ElapsedTime({ view }: { view: JobView }) {
  const now = useNow(view.live);
  const clock = formatElapsed((view.live ? now : (view.finishedAt ?? now)) - view.createdAt);
  return (
    <Text size="xs" c="dimmed">
      {view.live ? JOB_TEXTS.elapsed(clock) : JOB_TEXTS.took(clock)}
    </Text>
  );
}

/** A bar that moves while the job waits (queued) and fills with the server's progress. */
const progressValue = (view: JobView): number =>
  view.phase === 'processing' ? view.progress : view.phase === 'queued' ? 2 : 0;

interface JobSummaryProps {
  view: JobView;
  canCancel: boolean;
  onCancel: (localId: string) => void;
}

/**
 * What the jobs panel and a tool page's live card both show of a job: its progress while it
 * runs, the time it has taken, its cost and refund, and Cancel while the job takes one.
 */
export function JobSummary({ view, canCancel, onCancel }: JobSummaryProps) {
  return (
    <Stack gap={6}>
      {view.live && (
        <Progress
          value={progressValue(view)}
          animated={view.phase === 'processing' || view.phase === 'queued'}
          aria-label={`${view.toolTitle} progress`}
        />
      )}
      <Group gap="md" wrap="wrap" justify="space-between">
        <Group gap="md" wrap="wrap">
          <ElapsedTime view={view} />
          <Text size="xs">{JOB_TEXTS.cost(view.cost)}</Text>
          {view.refunded && (
            <Text size="xs" c="teal">
              {JOB_TEXTS.refunded(view.cost)}
            </Text>
          )}
        </Group>
        {canCancel && (
          <Button
            size="compact-sm"
            variant="default"
            aria-label={`${JOB_TEXTS.cancel} ${view.toolTitle}`}
            onClick={() => onCancel(view.localId)}
          >
            {JOB_TEXTS.cancel}
          </Button>
        )}
      </Group>
    </Stack>
  );
}
