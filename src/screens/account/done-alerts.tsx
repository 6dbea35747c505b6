import { Alert, Button, Group, Loader, Stack, Switch, Text, Title } from '@mantine/core';
import { useActorRef, useSelector } from '@xstate/react';
import { PUSH_TEXTS } from '@/config/push-texts';
import { inspect } from '@/lib/inspection/hub';
import { pushAlertsMachine } from '@/machines/push-alerts/push-alerts.machine';
import {
  selectCanDisablePushAlerts,
  selectCanEnablePushAlerts,
  selectCanTestPushAlerts,
  selectPushAlertsChecked,
  selectPushAlertsError,
  selectPushAlertsStatus,
  selectPushTestDelivered,
  selectPushTestNotice,
} from '@/machines/push-alerts/push-alerts.selectors';

const TEXTS = PUSH_TEXTS;

const STATUS_LINE: Partial<Record<ReturnType<typeof selectPushAlertsStatus>, string>> = {
  checking: TEXTS.checking,
  enabling: TEXTS.turningOn,
  disabling: TEXTS.turningOff,
  off: TEXTS.off,
  on: TEXTS.on,
  testing: TEXTS.on,
};

/**
 * "Done alerts" on the account page (issue 21 item 3): the opt-in switch for this device, a test
 * alert, and why it could not be turned on (blocked notifications, an unreachable push service).
 * Only rendering: the push-alerts machine owns the steps.
 */
export function DoneAlerts() {
  const alerts = useActorRef(pushAlertsMachine, { inspect });
  const status = useSelector(alerts, selectPushAlertsStatus);
  const checked = useSelector(alerts, selectPushAlertsChecked);
  const error = useSelector(alerts, selectPushAlertsError);
  const testNotice = useSelector(alerts, selectPushTestNotice);
  const testDelivered = useSelector(alerts, selectPushTestDelivered);
  const canEnable = useSelector(alerts, selectCanEnablePushAlerts);
  const canDisable = useSelector(alerts, selectCanDisablePushAlerts);
  const canTest = useSelector(alerts, selectCanTestPushAlerts);
  const busy = status === 'checking' || status === 'enabling' || status === 'disabling';

  return (
    <section aria-labelledby="done-alerts-heading">
      <Stack gap="sm">
        <Title order={2} size="h3" id="done-alerts-heading">
          {TEXTS.title}
        </Title>
        <Text size="sm">{TEXTS.intro}</Text>
        {status === 'unsupported' ? (
          <Alert color="gray" role="status">
            {TEXTS.unsupported}
          </Alert>
        ) : status === 'loadFailed' ? (
          <Alert color="red" title={TEXTS.failedTitle} role="alert">
            <Stack gap="xs" align="flex-start">
              <Text size="sm">{error}</Text>
              <Button size="xs" variant="default" onClick={() => alerts.send({ type: 'pushAlerts.retry' })}>
                {TEXTS.retry}
              </Button>
            </Stack>
          </Alert>
        ) : (
          <>
            <Group gap="sm" wrap="nowrap">
              <Switch
                label={TEXTS.switchLabel}
                checked={checked}
                disabled={!(canEnable || canDisable)}
                onChange={(event) => alerts.send({ type: event.currentTarget.checked ? 'pushAlerts.enable' : 'pushAlerts.disable' })}
              />
              {busy ? <Loader size="xs" aria-hidden /> : null}
            </Group>
            <Text size="sm" c="dimmed" role="status">
              {STATUS_LINE[status] ?? ''}
            </Text>
            {error ? (
              <Alert color="red" title={TEXTS.failedTitle} role="alert">
                {error}
              </Alert>
            ) : null}
            {checked ? (
              <Text size="sm" c="dimmed">
                {TEXTS.otherDevices}
              </Text>
            ) : null}
            {checked ? (
              <Group>
                <Button variant="default" size="xs" disabled={!canTest} loading={status === 'testing'} onClick={() => alerts.send({ type: 'pushAlerts.test' })}>
                  {TEXTS.test}
                </Button>
              </Group>
            ) : null}
            {testNotice ? (
              <Alert color={testDelivered ? 'teal' : 'orange'} role="status">
                {testNotice}
              </Alert>
            ) : null}
          </>
        )}
      </Stack>
    </section>
  );
}
