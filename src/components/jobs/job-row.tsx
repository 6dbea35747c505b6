import { Anchor, Badge, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { lazy, Suspense, useState } from 'react';
import { Link } from 'react-router-dom';
import { JOB_TEXTS } from '@/config/job-texts';
import { INSPECTOR_TEXTS } from '@/config/inspector-texts';
import { ROUTES } from '@/config/routes';
import { useCanInspect } from '@/components/inspector/use-can-inspect';
import { JobSummary } from '@/components/jobs/job-summary';
import { EditQueuedJobModal } from '@/components/jobs/edit-queued-job-modal';
import { QueueControls } from '@/components/jobs/queue-controls';
import { phaseText, useJobView, viewResultPath, type JobEntry, type JobView } from '@/components/jobs/job-view';

// Loaded at the first "Report a problem": the report's code and zod stay out of the first page.
const ProblemReportDialog = lazy(() => import('@/components/inspector/problem-report-dialog'));

/** Phases a person may report as a problem (issue 22 item 5). */
const REPORTABLE: ReadonlySet<JobView['phase']> = new Set(['failed', 'denied']);

const PHASE_COLORS: Partial<Record<JobView['phase'], string>> = {
  succeeded: 'green',
  failed: 'red',
  denied: 'red',
  nsfw: 'orange',
  cancelled: 'gray',
  reconnecting: 'yellow',
  paused: 'gray',
  held: 'gray',
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
  const { view, canCancel, queueActions } = useJobView(entry);
  const link = viewResultPath(view);
  const phase = phaseText(view);
  const mayInspect = useCanInspect();
  const [reporting, setReporting] = useState(false);
  const [editing, setEditing] = useState(false);
  const job = entry.ref;
  const { stored } = entry;
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
        {view.live && (
          <QueueControls
            toolTitle={view.toolTitle}
            actions={queueActions}
            position={view.queuePosition}
            held={view.phase === 'held'}
            error={view.queueError}
            onHold={() => job?.send({ type: 'job.hold' })}
            onResume={() => job?.send({ type: 'job.resume' })}
            onRunNext={() => job?.send({ type: 'job.runNext' })}
            onEdit={() => setEditing(true)}
          />
        )}
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
          {REPORTABLE.has(view.phase) && (
            <Button
              size="compact-sm"
              variant="subtle"
              color="red"
              aria-label={INSPECTOR_TEXTS.report.buttonLabel(view.toolTitle)}
              onClick={() => setReporting(true)}
            >
              {INSPECTOR_TEXTS.report.button}
            </Button>
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
      <EditQueuedJobModal
        media={editing && queueActions.edit ? view.media : null}
        toolTitle={view.toolTitle}
        onClose={() => setEditing(false)}
        onSave={(edit) => job?.send({ type: 'job.edit', edit })}
      />
      {reporting && (
        <Suspense fallback={null}>
          <ProblemReportDialog
            opened
            onClose={() => setReporting(false)}
            job={{
              localId: stored.localId,
              mediaId: stored.mediaId,
              tool: stored.tool,
              toolTitle: stored.toolTitle,
              option: stored.option,
              optionLabel: stored.optionLabel,
              outcome: stored.outcome,
              error: stored.error,
              cost: stored.cost,
              refunded: stored.refunded,
              createdAt: stored.createdAt,
              finishedAt: stored.finishedAt,
            }}
          />
        </Suspense>
      )}
    </Paper>
  );
}
