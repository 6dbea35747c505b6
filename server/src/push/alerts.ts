import type { Agent } from 'node:https';
import webpush from 'web-push';
import type { PushAlertPayload, PushTestResult } from '../../../src/services/schemas/push.ts';
import type { Queryable } from '../db/database.ts';
import {
  alertSubscriptions,
  claimGroupAlert,
  claimJobAlert,
  forgetSubscription,
  jobGroupOf,
  recordPushError,
  type PushSubscriptionRow,
} from '../db/push.ts';
import { groupAlert, jobAlert, testAlert } from './alert-payload.ts';
import type { VapidDetails } from './vapid.ts';

/**
 * Done alerts (issue 21 item 3): when a job ends (succeeded, failed, nsfw) or a story step's parts
 * are all done, a Web Push message goes to each browser the owner subscribed, so an alert reaches
 * them with Kinora's tab closed (the service worker, public/sw.js, shows it only then).
 *
 * Sent with the `web-push` package's sendNotification (https://github.com/web-push-libs/web-push
 * README): it encrypts the payload for the subscription's keys (RFC 8291, aes128gcm content
 * coding of RFC 8188) and signs a VAPID JWT (RFC 8292), then POSTs to the push service (RFC 8030).
 * A push service answering 404 or 410 says the subscription is gone: its row is deleted.
 *
 * The engine only tells us a job's run is over (after its transaction committed); everything here
 * runs in the background and never throws back: a slow or unreachable push service costs the
 * engine nothing.
 */

export interface PushLogger {
  warn(details: Record<string, unknown>, message: string): void;
  error(details: Record<string, unknown>, message: string): void;
}

export interface PushAlertOptions {
  db: Queryable;
  vapid: VapidDetails;
  logger?: PushLogger;
  /**
   * The https agent requests go through (web-push's `agent` option); the tests' local stand-in of a
   * push service gives one that trusts its own certificate. Omitted → Node's global agent.
   */
  agent?: Agent;
}

export interface PushAlerts {
  /** The VAPID public key browsers subscribe with (GET push/public-key). */
  readonly publicKey: string;
  /** A worker's run of this job is over (its transaction committed): its alert goes out if it is due. */
  jobSettled(jobId: string): void;
  /** POST push/test: a test alert to every subscription of the person (who opted in). */
  sendTest(userSub: string): Promise<PushTestResult>;
  /** Resolves once the alerts in flight are sent (tests; a closing server waits for them). */
  idle(): Promise<void>;
}

/** A push service keeps an undelivered alert this long (seconds): a day-old "done" is still news, a week-old one is not. */
const ALERT_TTL_SECONDS = 24 * 60 * 60;
/** A push service that does not answer within this is given up on (the socket timeout of web-push). */
const SEND_TIMEOUT_MS = 15_000;

type Delivery = 'sent' | 'removed' | 'failed';

export function createPushAlerts({ db, vapid, logger, agent }: PushAlertOptions): PushAlerts {
  const inFlight = new Set<Promise<unknown>>();
  const track = <T>(work: Promise<T>): Promise<T> => {
    inFlight.add(work);
    void work.finally(() => inFlight.delete(work)).catch(() => undefined);
    return work;
  };

  async function deliver(subscription: PushSubscriptionRow, payload: PushAlertPayload): Promise<Delivery> {
    try {
      await webpush.sendNotification(
        { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
        JSON.stringify(payload),
        {
          vapidDetails: vapid,
          TTL: ALERT_TTL_SECONDS,
          urgency: 'normal',
          contentEncoding: 'aes128gcm',
          timeout: SEND_TIMEOUT_MS,
          ...(agent ? { agent } : {}),
        },
      );
      return 'sent';
    } catch (error) {
      const status = error instanceof webpush.WebPushError ? error.statusCode : null;
      if (status === 404 || status === 410) {
        await forgetSubscription(db, subscription.endpoint);
        return 'removed';
      }
      const message = error instanceof Error ? error.message : String(error);
      logger?.warn({ err: error, status, endpointHost: hostOf(subscription.endpoint) }, 'a push alert could not be delivered');
      await recordPushError(db, subscription.endpoint, status ? `${status} ${message}` : message);
      return 'failed';
    }
  }

  async function sendToOwner(userSub: string, payload: PushAlertPayload): Promise<PushTestResult> {
    const subscriptions = await alertSubscriptions(db, userSub);
    const results = await Promise.all(subscriptions.map((subscription) => deliver(subscription, payload)));
    return {
      sent: results.filter((result) => result === 'sent').length,
      failed: results.filter((result) => result === 'failed').length,
      removed: results.filter((result) => result === 'removed').length,
    };
  }

  async function alertFor(jobId: string): Promise<void> {
    const group = await jobGroupOf(db, jobId);
    if (group) {
      const parts = await claimGroupAlert(db, group);
      const owner = parts[0]?.user_sub;
      if (owner) await sendToOwner(owner, groupAlert(group, parts));
      return;
    }
    const job = await claimJobAlert(db, jobId);
    if (job) await sendToOwner(job.user_sub, jobAlert(job));
  }

  return {
    publicKey: vapid.publicKey,
    jobSettled(jobId) {
      track(alertFor(jobId)).catch((error: unknown) => logger?.error({ err: error, jobId }, 'sending a Done alert failed'));
    },
    sendTest: (userSub) => track(sendToOwner(userSub, testAlert())),
    async idle() {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
  };
}

/** Logs name the push service, never the subscription's secret path. */
function hostOf(endpoint: string): string {
  try {
    return new URL(endpoint).host;
  } catch {
    return 'unknown';
  }
}
