import { Alert, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { shallowEqual, useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { PROJECT_HOLD_TEXTS, PROJECT_HOLD_WORDS } from '@/config/project-hold-texts';
import type { projectHoldMachine } from '@/machines/project-hold/project-hold.machine';
import { selectProjectHoldView } from '@/machines/project-hold/project-hold.selectors';

/**
 * One quote for a whole project (issue 21 item 6): the panel of a story ("This film") or an album
 * ("This album") with the price of everything still to make, "Hold … and start", and once held
 * what the hold keeps with Release. It renders the project's hold actor and sends it events.
 */

export type ProjectHoldRef = ActorRefFrom<typeof projectHoldMachine>;

export function ProjectHoldPanel({ hold }: { hold: ProjectHoldRef }) {
  const view = useSelector(hold, selectProjectHoldView, shallowEqual);
  const kind = useSelector(hold, (snapshot) => snapshot.context.project.kind);
  const words = PROJECT_HOLD_WORDS[kind];
  const busy = view.state === 'placing' || view.state === 'releasing';
  return (
    <Paper withBorder p="md" radius="md" aria-labelledby={`${kind}-hold-heading`} component="section">
      <Stack gap="xs">
        <Title order={2} size="h5" id={`${kind}-hold-heading`}>
          {words.heading}
        </Title>
        {view.state === 'failed' ? (
          <Group>
            <Text c="red">{view.error ?? words.loadFailed}</Text>
            <Button size="xs" variant="default" onClick={() => hold.send({ type: 'hold.refresh' })}>
              {PROJECT_HOLD_TEXTS.retry}
            </Button>
          </Group>
        ) : view.summary === null && view.state === 'loading' ? (
          <Text c="dimmed" role="status">
            {words.loading}
          </Text>
        ) : (
          <>
            <Text data-testid={`${kind}-quote`}>{view.summary ?? words.nothingLeft}</Text>
            {view.heldRemaining !== null && <Text data-testid={`${kind}-hold`}>{words.held(view.heldRemaining, view.heldDrawn)}</Text>}
            <Group>
              {view.canPlace && (
                <Button loading={view.state === 'placing'} disabled={busy} onClick={() => hold.send({ type: 'hold.place' })}>
                  {view.heldRemaining === null ? PROJECT_HOLD_TEXTS.hold(view.cost) : PROJECT_HOLD_TEXTS.requote(view.cost)}
                </Button>
              )}
              {view.heldRemaining !== null && (
                <Button variant="default" loading={view.state === 'releasing'} disabled={busy || !view.canRelease} onClick={() => hold.send({ type: 'hold.release' })}>
                  {PROJECT_HOLD_TEXTS.release}
                </Button>
              )}
            </Group>
            {view.heldRemaining === null && view.canPlace && (
              <Text size="sm" c="dimmed">
                {words.why}
              </Text>
            )}
          </>
        )}
        {view.error && view.state !== 'failed' && (
          <Alert color="red" role="alert" withCloseButton closeButtonLabel={PROJECT_HOLD_TEXTS.dismiss} onClose={() => hold.send({ type: 'hold.dismiss' })}>
            {view.error}
          </Alert>
        )}
        {view.notice && (
          <Text role="status" c="teal">
            {view.notice}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
