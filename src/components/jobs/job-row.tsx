import { Anchor, Badge, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { Link } from 'react-router-dom';
import { JOB_TEXTS } from '@/config/job-texts';
import { INSPECTOR_TEXTS } from '@/config/inspector-texts';
import { ROUTES } from '@/config/routes';
import { useCanInspect } from '@/components/inspector/use-can-inspect';
import { JobSummary } from '@/components/jobs/job-summary';
import { phaseText, useJobView, viewResultPath, type JobEntry, type JobView } from '@/components/jobs/job-view';

const PHASE_COLORS: Partial<Record<JobView['phase'], string>> = {
  succeeded: 'green',
  failed: 'red',
  denied: 'red',
  nsfw: 'orange',
  cancelled: 'gray',
  reconnecting: 'yellow',
  paused: 'gray',
};

export interface JobRowProps {
  entry: JobEntry;
  onCancel: (localId: string) => void;
  onDismiss: (localId: string) => void;
  /** Following the result link closes the panel. */
  onNavigate?: () => void;
}

/** One job in the jobs panel: tool, model, phase, progress, time, cost, refund, actions. */
export function JobRow({ entry, onCancel, onDismiss, onNavigate }: JobRowProps) {
  const { view, canCancel } = useJobView(entry);
  const link = viewResultPath(view);
  const phase = phaseText(view);
  const mayInspect = useCanInspect();
  return (
    <Paper withBorder p="sm" radius="md" component="li" aria-label={`${view.toolTitle}, ${phase}`}>
      <Stack gap={6}>
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <div>
            <Text fw={600} size="sm">
              {view.toolTitle}
            </Text>
            <Text size="xs" c="dimmed">
              {view.optionLabel}
            </Text>
          </div>
          <Badge color={PHASE_COLORS[view.phase] ?? 'blue'} variant="light" style={{ textTransform: 'none' }}>
            {phase}
          </Badge>
        </Group>
        <JobSummary view={view} canCancel={canCancel} onCancel={onCancel} />
        <Group gap="xs">
          {link && (
            <Anchor component={Link} to={link} size="sm" onClick={onNavigate}>
              {JOB_TEXTS.viewResult}
            </Anchor>
          )}
          {mayInspect && (
            <Anchor
              component={Link}
              to={`${ROUTES.inspector}?actor=${encodeURIComponent(entry.localId)}`}
              size="sm"
              onClick={onNavigate}
              aria-label={INSPECTOR_TEXTS.inspectJobLabel(view.toolTitle)}
            >
              {INSPECTOR_TEXTS.inspectJob}
            </Anchor>
          )}
          {!view.live && (
            <Button
              size="compact-sm"
              variant="subtle"
              aria-label={`${JOB_TEXTS.dismiss} ${view.toolTitle}`}
              onClick={() => onDismiss(view.localId)}
            >
              {JOB_TEXTS.dismiss}
            </Button>
          )}
        </Group>
      </Stack>
    </Paper>
  );
}
