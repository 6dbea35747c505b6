import { assign, fromPromise, setup } from 'xstate';
import type { SnapshotFrom } from 'xstate';
import { PUSH_TEXTS } from '@/config/push-texts';
import { errorMessageOf } from '@/services/api-error';
import {
  disablePushAlerts,
  enablePushAlerts,
  loadPushAlerts,
  PushAlertError,
  sendTestPushAlert,
  type PushAlertState,
} from '@/services/push';
import type { PushSettings, PushTestResult } from '@/services/schemas/push';

export interface PushAlertsContext {
  /** Why the last step failed, as the page says it; null otherwise. */
  error: string | null;
  /** What the last test alert did, as the page says it; null until one was sent. */
  testNotice: string | null;
  /** Whether that test reached at least one device. */
  testDelivered: boolean;
}

export type PushAlertsEvent =
  | { type: 'pushAlerts.enable' }
  | { type: 'pushAlerts.disable' }
  | { type: 'pushAlerts.test' }
  | { type: 'pushAlerts.retry' };

const isUnsupported = (error: unknown): boolean => error instanceof PushAlertError && error.problem === 'unsupported';

/** The words for a test's outcome: sent to n devices, or none could take it. */
export function testOutcome(result: PushTestResult): { notice: string; delivered: boolean } {
  return result.sent > 0 ? { notice: PUSH_TEXTS.testSent(result.sent), delivered: true } : { notice: PUSH_TEXTS.testFailed, delivered: false };
}

/**
 * Done alerts on the account page (issue 21 item 3): checking (is this browser able, did the
 * person opt in, does it hold a subscription) → off ⇄ on, through enabling (permission, service
 * worker, subscription, POST) and disabling (DELETE, unsubscribe); on, a test alert can be sent.
 * A browser without service workers or the Push API stays `unsupported`; a refused permission or an
 * unreachable push service leaves the switch off with the reason.
 */
export const pushAlertsMachine = setup({
  types: {
    context: {} as PushAlertsContext,
    events: {} as PushAlertsEvent,
  },
  actors: {
    loadAlerts: fromPromise<PushAlertState>(() => loadPushAlerts()),
    enableAlerts: fromPromise<PushSettings>(() => enablePushAlerts()),
    disableAlerts: fromPromise<PushSettings>(() => disablePushAlerts()),
    sendTest: fromPromise<PushTestResult>(() => sendTestPushAlert()),
  },
  actions: {
    setError: assign((_, params: { error: unknown }) => ({ error: errorMessageOf(params.error) })),
    clearMessages: assign({ error: null, testNotice: null, testDelivered: false }),
    setTestOutcome: assign((_, params: { result: PushTestResult }) => {
      const { notice, delivered } = testOutcome(params.result);
      return { testNotice: notice, testDelivered: delivered, error: null };
    }),
  },
  guards: {
    unsupported: (_, params: { error: unknown }) => isUnsupported(params.error),
    enabled: (_, params: { enabled: boolean }) => params.enabled,
  },
}).createMachine({
  id: 'pushAlerts',
  context: { error: null, testNotice: null, testDelivered: false },
  initial: 'checking',
  states: {
    checking: {
      invoke: {
        src: 'loadAlerts',
        onDone: [
          { guard: { type: 'enabled', params: ({ event }) => ({ enabled: event.output.enabled }) }, target: 'on' },
          { target: 'off' },
        ],
        onError: [
          { guard: { type: 'unsupported', params: ({ event }) => ({ error: event.error }) }, target: 'unsupported' },
          { target: 'loadFailed', actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) } },
        ],
      },
    },
    loadFailed: {
      on: { 'pushAlerts.retry': { target: 'checking', actions: 'clearMessages' } },
    },
    unsupported: {},
    off: {
      on: { 'pushAlerts.enable': { target: 'enabling', actions: 'clearMessages' } },
    },
    enabling: {
      invoke: {
        src: 'enableAlerts',
        onDone: 'on',
        onError: [
          { guard: { type: 'unsupported', params: ({ event }) => ({ error: event.error }) }, target: 'unsupported' },
          { target: 'off', actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) } },
        ],
      },
    },
    on: {
      initial: 'idle',
      on: { 'pushAlerts.disable': { target: 'disabling', actions: 'clearMessages' } },
      states: {
        idle: {
          on: { 'pushAlerts.test': { target: 'testing', actions: 'clearMessages' } },
        },
        testing: {
          invoke: {
            src: 'sendTest',
            onDone: { target: 'idle', actions: { type: 'setTestOutcome', params: ({ event }) => ({ result: event.output }) } },
            onError: { target: 'idle', actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) } },
          },
        },
      },
    },
    disabling: {
      invoke: {
        src: 'disableAlerts',
        onDone: 'off',
        onError: { target: 'on', actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) } },
      },
    },
  },
});

export type PushAlertsSnapshot = SnapshotFrom<typeof pushAlertsMachine>;
