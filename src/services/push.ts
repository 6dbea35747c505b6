import { PUSH_TEXTS } from '@/config/push-texts';
import { apiDelete, apiGet, apiPostJson } from '@/services/http';
import {
  pushPublicKeySchema,
  pushSettingsSchema,
  pushSubscriptionInputSchema,
  pushTestResultSchema,
  type PushSettings,
  type PushTestResult,
} from '@/services/schemas/push';

/**
 * Done alerts (issue 21 item 3; README "Done alerts"): the browser's side of Web Push — the
 * service worker (public/sw.js), the notification permission, the push subscription — and the
 * server's push calls. Each exported function is one step the push-alerts machine takes.
 */

/** Why Done alerts could not be turned on; the message is what the account page says. */
export type PushAlertProblem = 'unsupported' | 'denied' | 'dismissed' | 'unreachable';

export class PushAlertError extends Error {
  readonly problem: PushAlertProblem;
  constructor(problem: PushAlertProblem, options?: { cause?: unknown }) {
    super(PUSH_TEXTS[problem === 'unreachable' ? 'pushServiceUnreachable' : problem], options);
    this.name = 'PushAlertError';
    this.problem = problem;
  }
}

/** The service worker's file and scope: the whole site, so every page's alerts open in it. */
const WORKER_URL = '/sw.js';
const WORKER_SCOPE = '/';

/** Whether this browser can get alerts with Kinora closed: a service worker, the Push API, notifications. */
export function pushSupported(): boolean {
  return (
    typeof navigator !== 'undefined' &&
    'serviceWorker' in navigator &&
    typeof window !== 'undefined' &&
    'PushManager' in window &&
    'Notification' in window
  );
}

export interface PushAlertState {
  /** The person opted in and this browser holds a subscription the server knows. */
  enabled: boolean;
  permission: NotificationPermission;
}

/** This browser's subscription, if it made one (without registering a worker that is not there yet). */
async function currentSubscription(): Promise<PushSubscription | null> {
  const registration = await navigator.serviceWorker.getRegistration(WORKER_SCOPE);
  return (await registration?.pushManager.getSubscription()) ?? null;
}

/** The subscription as the server takes it (checked with the server's own schema before it is sent). */
const subscriptionBody = (subscription: PushSubscription) => pushSubscriptionInputSchema.parse(subscription.toJSON());

/**
 * Where Done alerts stand on this device: GET push/public-key says whether the person opted in;
 * on only when this browser also holds a subscription, which is sent again (the server may have
 * dropped it after a push service said it was gone; POST is idempotent per endpoint).
 */
export async function loadPushAlerts(): Promise<PushAlertState> {
  if (!pushSupported()) throw new PushAlertError('unsupported');
  const [server, subscription] = await Promise.all([apiGet('push/public-key', pushPublicKeySchema), currentSubscription()]);
  const permission = Notification.permission;
  if (!server.enabled || !subscription || permission !== 'granted') return { enabled: false, permission };
  await apiPostJson('push/subscriptions', subscriptionBody(subscription), pushSettingsSchema);
  return { enabled: true, permission };
}

/** Base64url (the server's VAPID key) to the bytes pushManager.subscribe takes. */
function keyBytes(base64Url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64Url.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(base64Url.length / 4) * 4, '=');
  const binary = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

/**
 * Turns Done alerts on for this device: asks for the notification permission first (while the
 * click that asked still counts as the person's gesture), registers the service worker, subscribes
 * with the server's VAPID public key and POSTs the subscription (which opts the person in).
 */
export async function enablePushAlerts(): Promise<PushSettings> {
  if (!pushSupported()) throw new PushAlertError('unsupported');
  const permission = Notification.permission === 'granted' ? 'granted' : await Notification.requestPermission();
  if (permission === 'denied') throw new PushAlertError('denied');
  if (permission !== 'granted') throw new PushAlertError('dismissed');
  await navigator.serviceWorker.register(WORKER_URL, { scope: WORKER_SCOPE, updateViaCache: 'none' });
  const registration = await navigator.serviceWorker.ready;
  const { public_key: publicKey } = await apiGet('push/public-key', pushPublicKeySchema);
  let subscription = await registration.pushManager.getSubscription();
  // A subscription made with another key (the server's keys changed) cannot be pushed to: made afresh.
  const madeWith = subscription?.options.applicationServerKey;
  if (subscription && madeWith && !sameBytes(new Uint8Array(madeWith), keyBytes(publicKey))) {
    await subscription.unsubscribe();
    subscription = null;
  }
  if (!subscription) {
    try {
      subscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) });
    } catch (error) {
      // NotAllowedError: the permission went away meanwhile; anything else (AbortError "push
      // service error", no network): the browser's push service could not be reached.
      throw new PushAlertError(error instanceof DOMException && error.name === 'NotAllowedError' ? 'denied' : 'unreachable', { cause: error });
    }
  }
  return apiPostJson('push/subscriptions', subscriptionBody(subscription), pushSettingsSchema);
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, index) => byte === b[index]);
}

/**
 * Turns Done alerts off: DELETE push/subscriptions for this browser's endpoint (which opts the
 * person out on every device), then the browser's own subscription goes.
 */
export async function disablePushAlerts(): Promise<PushSettings> {
  const subscription = pushSupported() ? await currentSubscription() : null;
  if (!subscription) return { enabled: false };
  const settings = await apiDelete('push/subscriptions', pushSettingsSchema, { query: { endpoint: subscription.endpoint } });
  await subscription.unsubscribe();
  return settings;
}

/** POST push/test: a test alert to each of the person's devices. */
export const sendTestPushAlert = (): Promise<PushTestResult> => apiPostJson('push/test', undefined, pushTestResultSchema);
