import type { PushAlertsSnapshot } from '@/machines/push-alerts/push-alerts.machine';

export type PushAlertsStatus = 'checking' | 'loadFailed' | 'unsupported' | 'off' | 'enabling' | 'on' | 'testing' | 'disabling';

export function selectPushAlertsStatus(snapshot: PushAlertsSnapshot): PushAlertsStatus {
  if (snapshot.matches({ on: 'testing' })) return 'testing';
  if (snapshot.matches('on')) return 'on';
  for (const status of ['checking', 'loadFailed', 'unsupported', 'off', 'enabling', 'disabling'] as const) {
    if (snapshot.matches(status)) return status;
  }
  return 'checking';
}

/** The switch shows on while alerts are on, being tested, or being turned off. */
export const selectPushAlertsChecked = (snapshot: PushAlertsSnapshot): boolean =>
  snapshot.matches('on') || snapshot.matches('disabling');

export const selectPushAlertsError = (snapshot: PushAlertsSnapshot): string | null => snapshot.context.error;
export const selectPushTestNotice = (snapshot: PushAlertsSnapshot): string | null => snapshot.context.testNotice;
export const selectPushTestDelivered = (snapshot: PushAlertsSnapshot): boolean => snapshot.context.testDelivered;

/** The switch can be flipped (off → enabling, on → disabling); the test button can be pressed. */
export const selectCanEnablePushAlerts = (snapshot: PushAlertsSnapshot): boolean => snapshot.can({ type: 'pushAlerts.enable' });
export const selectCanDisablePushAlerts = (snapshot: PushAlertsSnapshot): boolean => snapshot.can({ type: 'pushAlerts.disable' });
export const selectCanTestPushAlerts = (snapshot: PushAlertsSnapshot): boolean => snapshot.can({ type: 'pushAlerts.test' });
