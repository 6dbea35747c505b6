import { Alert, Button, Group, Loader, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useActorRef, useSelector } from '@xstate/react';
import { INSPECTOR_TEXTS } from '@/config/inspector-texts';
import { inspect, inspectionHub } from '@/lib/inspection/hub';
import type { InspectionRecord } from '@/lib/inspection/hub';
import type { ReportJob } from '@/lib/inspection/problem-report';
import { problemReportMachine } from '@/machines/inspector/problem-report.machine';

export interface ProblemReportDialogProps {
  opened: boolean;
  onClose: () => void;
  /** The failed job it is about; null from the inspector. */
  job: ReportJob | null;
  /** The inspector's records (its view: live or a loaded log) when it reports. */
  records?: readonly InspectionRecord[];
  messages?: readonly unknown[];
}

type Phase = 'editing' | 'collecting' | 'sending' | 'sendFailed' | 'downloaded' | 'sent';

function ProblemReportBody({ job, records, messages, onClose }: Omit<ProblemReportDialogProps, 'opened'>) {
  const actor = useActorRef(problemReportMachine, { input: { hub: inspectionHub, job, records, messages }, inspect });
  const phase = useSelector(actor, (snapshot) => snapshot.value as Phase);
  const note = useSelector(actor, (snapshot) => snapshot.context.note);
  const fileName = useSelector(actor, (snapshot) => snapshot.context.fileName);
  const error = useSelector(actor, (snapshot) => snapshot.context.error);
  return (
    <Stack gap="sm">
      <Text size="sm">{job ? INSPECTOR_TEXTS.report.explain : INSPECTOR_TEXTS.report.explainInspector}</Text>
      {phase === 'editing' && (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            actor.send({ type: 'report.create' });
          }}
        >
          <Stack gap="sm">
            <Textarea
              label={INSPECTOR_TEXTS.report.note}
              placeholder={INSPECTOR_TEXTS.report.notePlaceholder}
              value={note}
              rows={4}
              maxLength={2000}
              data-autofocus
              onChange={(event) => actor.send({ type: 'report.editNote', text: event.currentTarget.value })}
            />
            {error && (
              <Alert color="red" role="alert">
                {error}
              </Alert>
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose}>
                {INSPECTOR_TEXTS.report.close}
              </Button>
              <Button type="submit">{INSPECTOR_TEXTS.report.create}</Button>
            </Group>
          </Stack>
        </form>
      )}
      {phase === 'collecting' && (
        <Group gap="xs" role="status">
          <Loader size="sm" />
          <Text size="sm">{INSPECTOR_TEXTS.report.creating}</Text>
        </Group>
      )}
      {phase !== 'editing' && phase !== 'collecting' && (
        <Stack gap="xs">
          {fileName && (
            <Text size="sm" role="status">
              {INSPECTOR_TEXTS.report.downloaded(fileName)}
            </Text>
          )}
          {phase === 'sending' && (
            <Group gap="xs">
              <Loader size="xs" />
              <Text size="sm">{INSPECTOR_TEXTS.report.sending}</Text>
            </Group>
          )}
          {phase === 'sent' && (
            <Text size="sm" c="green.8">
              {INSPECTOR_TEXTS.report.sent}
            </Text>
          )}
          {phase === 'sendFailed' && error && (
            <Alert color="orange" role="alert">
              <Stack gap="xs" align="flex-start">
                <Text size="sm">{error}</Text>
                <Button size="compact-sm" variant="light" onClick={() => actor.send({ type: 'report.retrySend' })}>
                  {INSPECTOR_TEXTS.report.retry}
                </Button>
              </Stack>
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {INSPECTOR_TEXTS.report.close}
            </Button>
          </Group>
        </Stack>
      )}
    </Stack>
  );
}

/**
 * "Report a problem" (issue 22 item 5): a dialog whose report machine lives while it is open, so
 * each opening starts a new report. Loaded on first use (the jobs panel and the inspector import it
 * lazily): zod and the report's code stay out of the first page.
 */
export default function ProblemReportDialog({ opened, onClose, ...report }: ProblemReportDialogProps) {
  return (
    <Modal opened={opened} onClose={onClose} title={INSPECTOR_TEXTS.report.title} size="lg">
      {opened && <ProblemReportBody {...report} onClose={onClose} />}
    </Modal>
  );
}
