import { Button, Stack, Text, Title } from '@mantine/core';
import { INSPECTOR_TEXTS } from '@/config/inspector-texts';
import { formatDateTime } from '@/lib/format';
import type { SavedJobSummary } from '@/lib/inspection/saved-job-logs';

const when = (time: number): string => formatDateTime(new Date(time).toISOString());

interface SavedJobListProps {
  jobs: readonly SavedJobSummary[];
  onOpen: (actorId: string) => void;
}

/** The jobs' paths this browser keeps (issue 22 item 1): each opens as a replay on the job's chart. */
export function SavedJobList({ jobs, onOpen }: SavedJobListProps) {
  return (
    <Stack gap={4} component="section" aria-labelledby="inspector-saved-jobs">
      <Title order={2} size="h4" id="inspector-saved-jobs">
        {INSPECTOR_TEXTS.saved.title}
      </Title>
      <Text size="xs" c="dimmed">
        {INSPECTOR_TEXTS.saved.hint}
      </Text>
      {jobs.length === 0 ? (
        <Text size="sm" c="dimmed">
          {INSPECTOR_TEXTS.saved.empty}
        </Text>
      ) : (
        <Stack gap={2} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {jobs.map((job) => {
            const title = job.toolTitle ?? INSPECTOR_TEXTS.saved.untitled;
            return (
            <li key={job.actorId}>
              <Button
                variant="subtle"
                size="compact-sm"
                justify="start"
                fullWidth
                onClick={() => onOpen(job.actorId)}
                aria-label={INSPECTOR_TEXTS.saved.open(title, job.lastState, when(job.savedAt))}
              >
                {`${title} → ${job.lastState} · ${when(job.savedAt)}`}
              </Button>
            </li>
            );
          })}
        </Stack>
      )}
    </Stack>
  );
}
