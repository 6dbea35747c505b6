import { Button, Group, Text } from '@mantine/core';
import { QUEUE_TEXTS } from '@/config/queue-texts';
import type { QueueActions } from '@/components/jobs/job-view';

export interface QueueControlsProps {
  toolTitle: string;
  actions: QueueActions;
  /** A call is on its way: the buttons wait. */
  busy?: boolean;
  /** The waiting job's place (1 = next), or null. */
  position: number | null;
  held: boolean;
  error: string | null;
  onHold: () => void;
  onResume: () => void;
  onRunNext: () => void;
  onEdit: () => void;
}

/**
 * A waiting job's place or "Held", the last queue action's failure, and Hold / Resume / Run next /
 * Edit, each shown exactly when the job's machine takes it (issue 21 item 2): the jobs panel's and
 * the History page's rows.
 */
export function QueueControls({ toolTitle, actions, busy = false, position, held, error, onHold, onResume, onRunNext, onEdit }: QueueControlsProps) {
  const any = actions.hold || actions.resume || actions.runNext || actions.edit;
  return (
    <>
      {held ? (
        <Text size="xs" c="dimmed">
          {QUEUE_TEXTS.held}
        </Text>
      ) : (
        position !== null && (
          <Text size="xs" c="dimmed">
            {QUEUE_TEXTS.position(position)}
          </Text>
        )
      )}
      {error && (
        <Text size="xs" c="red" role="alert">
          {error}
        </Text>
      )}
      {any && (
        <Group gap={6} wrap="nowrap">
          {actions.hold && (
            <Button size="compact-sm" variant="default" disabled={busy} aria-label={QUEUE_TEXTS.holdLabel(toolTitle)} onClick={onHold}>
              {QUEUE_TEXTS.hold}
            </Button>
          )}
          {actions.resume && (
            <Button size="compact-sm" variant="light" disabled={busy} aria-label={QUEUE_TEXTS.resumeLabel(toolTitle)} onClick={onResume}>
              {QUEUE_TEXTS.resume}
            </Button>
          )}
          {actions.runNext && (
            <Button size="compact-sm" variant="default" disabled={busy} aria-label={QUEUE_TEXTS.runNextLabel(toolTitle)} onClick={onRunNext}>
              {QUEUE_TEXTS.runNext}
            </Button>
          )}
          {actions.edit && (
            <Button size="compact-sm" variant="subtle" disabled={busy} aria-label={QUEUE_TEXTS.editLabel(toolTitle)} onClick={onEdit}>
              {QUEUE_TEXTS.edit}
            </Button>
          )}
        </Group>
      )}
    </>
  );
}
