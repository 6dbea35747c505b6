import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Mock } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { PUSH_TEXTS } from '@/config/push-texts';
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
import { PushAlertError, type PushAlertState } from '@/services/push';
import type { PushSettings, PushTestResult } from '@/services/schemas/push';
import { httpError } from '../generation-job/generation-job.fixtures';

const flush = () => vi.advanceTimersByTimeAsync(0);

let load: Mock<() => Promise<PushAlertState>>;
let enable: Mock<() => Promise<PushSettings>>;
let disable: Mock<() => Promise<PushSettings>>;
let test: Mock<() => Promise<PushTestResult>>;

beforeEach(() => {
  vi.useFakeTimers();
  load = vi.fn(async () => ({ enabled: false, permission: 'default' as const }));
  enable = vi.fn(async () => ({ enabled: true }));
  disable = vi.fn(async () => ({ enabled: false }));
  test = vi.fn(async () => ({ sent: 1, failed: 0, removed: 0 }));
});
afterEach(() => vi.useRealTimers());

async function start() {
  const actor = createActor(
    pushAlertsMachine.provide({
      actors: {
        loadAlerts: fromPromise(() => load()),
        enableAlerts: fromPromise(() => enable()),
        disableAlerts: fromPromise(() => disable()),
        sendTest: fromPromise(() => test()),
      },
    }),
  );
  actor.start();
  await flush();
  return actor;
}

describe('Done alerts', () => {
  it('checks this browser first, then is off until the person turns it on', async () => {
    const actor = createActor(pushAlertsMachine.provide({ actors: { loadAlerts: fromPromise(() => load()) } }));
    actor.start();
    expect(selectPushAlertsStatus(actor.getSnapshot())).toBe('checking');
    expect(selectCanEnablePushAlerts(actor.getSnapshot())).toBe(false);
    await flush();
    expect(selectPushAlertsStatus(actor.getSnapshot())).toBe('off');
    expect(selectPushAlertsChecked(actor.getSnapshot())).toBe(false);
    expect(selectCanTestPushAlerts(actor.getSnapshot())).toBe(false);
  });

  it('starts on when the person opted in and this browser holds a subscription', async () => {
    load.mockResolvedValueOnce({ enabled: true, permission: 'granted' });
    const actor = await start();
    expect(selectPushAlertsStatus(actor.getSnapshot())).toBe('on');
    expect(selectCanDisablePushAlerts(actor.getSnapshot())).toBe(true);
  });

  it('turns on, sends a test alert, says how it went, and turns off', async () => {
    const actor = await start();
    actor.send({ type: 'pushAlerts.enable' });
    expect(selectPushAlertsStatus(actor.getSnapshot())).toBe('enabling');
    expect(selectPushAlertsChecked(actor.getSnapshot())).toBe(false);
    await flush();
    expect(enable).toHaveBeenCalledTimes(1);
    expect(selectPushAlertsStatus(actor.getSnapshot())).toBe('on');

    actor.send({ type: 'pushAlerts.test' });
    expect(selectPushAlertsStatus(actor.getSnapshot())).toBe('testing');
    expect(selectCanTestPushAlerts(actor.getSnapshot())).toBe(false);
    await flush();
    expect(selectPushTestNotice(actor.getSnapshot())).toBe(PUSH_TEXTS.testSent(1));
    expect(selectPushTestDelivered(actor.getSnapshot())).toBe(true);

    test.mockResolvedValueOnce({ sent: 0, failed: 2, removed: 0 });
    actor.send({ type: 'pushAlerts.test' });
    await flush();
    expect(selectPushTestNotice(actor.getSnapshot())).toBe(PUSH_TEXTS.testFailed);
    expect(selectPushTestDelivered(actor.getSnapshot())).toBe(false);

    actor.send({ type: 'pushAlerts.disable' });
    expect(selectPushAlertsStatus(actor.getSnapshot())).toBe('disabling');
    expect(selectPushTestNotice(actor.getSnapshot())).toBeNull();
    await flush();
    expect(selectPushAlertsStatus(actor.getSnapshot())).toBe('off');
  });

  it.each([
    ['denied', PUSH_TEXTS.denied],
    ['dismissed', PUSH_TEXTS.dismissed],
    ['unreachable', PUSH_TEXTS.pushServiceUnreachable],
  ] as const)('stays off with the reason when turning on fails (%s), and tries again on the next switch', async (problem, message) => {
    enable.mockRejectedValueOnce(new PushAlertError(problem));
    const actor = await start();
    actor.send({ type: 'pushAlerts.enable' });
    await flush();
    expect(selectPushAlertsStatus(actor.getSnapshot())).toBe('off');
    expect(selectPushAlertsError(actor.getSnapshot())).toBe(message);
    actor.send({ type: 'pushAlerts.enable' });
    expect(selectPushAlertsError(actor.getSnapshot())).toBeNull();
    await flush();
    expect(selectPushAlertsStatus(actor.getSnapshot())).toBe('on');
  });

  it('says when this browser cannot get alerts at all, and offers nothing to switch', async () => {
    load.mockRejectedValueOnce(new PushAlertError('unsupported'));
    const actor = await start();
    expect(selectPushAlertsStatus(actor.getSnapshot())).toBe('unsupported');
    expect(selectCanEnablePushAlerts(actor.getSnapshot())).toBe(false);
  });

  it('shows the server message when the check fails, and checks again on retry', async () => {
    load.mockRejectedValueOnce(httpError(503, 'Service unavailable'));
    const actor = await start();
    expect(selectPushAlertsStatus(actor.getSnapshot())).toBe('loadFailed');
    expect(selectPushAlertsError(actor.getSnapshot())).toBe('Service unavailable');
    actor.send({ type: 'pushAlerts.retry' });
    await flush();
    expect(selectPushAlertsStatus(actor.getSnapshot())).toBe('off');
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('stays on with the server message when turning off fails', async () => {
    load.mockResolvedValueOnce({ enabled: true, permission: 'granted' });
    disable.mockRejectedValueOnce(httpError(500, 'Something went wrong on the server. Please try again.'));
    const actor = await start();
    actor.send({ type: 'pushAlerts.disable' });
    await flush();
    expect(selectPushAlertsStatus(actor.getSnapshot())).toBe('on');
    expect(selectPushAlertsError(actor.getSnapshot())).toBe('Something went wrong on the server. Please try again.');
  });

  it('keeps a failed test message without leaving on', async () => {
    load.mockResolvedValueOnce({ enabled: true, permission: 'granted' });
    test.mockRejectedValueOnce(httpError(409, 'Done alerts are off: turn them on first.'));
    const actor = await start();
    actor.send({ type: 'pushAlerts.test' });
    await flush();
    expect(selectPushAlertsStatus(actor.getSnapshot())).toBe('on');
    expect(selectPushAlertsError(actor.getSnapshot())).toBe('Done alerts are off: turn them on first.');
  });
});
