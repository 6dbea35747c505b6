import type { FastifyInstance } from 'fastify';
import {
  pushEndpointQuerySchema,
  pushSubscriptionInputSchema,
  type PushPublicKey,
  type PushSettings,
  type PushTestResult,
} from '../../../src/services/schemas/push.ts';
import { alertSubscriptions, pushAlertsOn, removeSubscription, saveSubscription, setPushAlerts } from '../db/push.ts';
import { isGuestUsername } from '../db/users.ts';
import type { PushAlerts } from '../push/alerts.ts';
import { HttpError, ok, parseInput } from './http.ts';
import type { RouteDeps } from './route-deps.ts';
import type { AuthUser } from './user-auth.ts';

/**
 * Done alerts' calls (issue 21 item 3), Kinora's additions to SPEC §7, the signed-in person's own
 * only:
 * - GET push/public-key: the VAPID public key to subscribe with, and whether the person opted in;
 * - POST push/subscriptions: a browser's PushSubscription; the person's alerts turn on;
 * - DELETE push/subscriptions?endpoint=: that browser's subscription goes; the alerts turn off;
 * - POST push/test: a test alert to each of the person's browsers.
 */

export interface PushRouteDeps extends RouteDeps {
  alerts: PushAlerts;
}

export const PUSH_DETAILS = {
  guest: 'The shared guest account cannot get Done alerts: create your own account to have them.',
  notOn: 'Done alerts are off: turn them on first.',
} as const;

export async function pushRoutes(app: FastifyInstance, { db, auth, alerts }: PushRouteDeps): Promise<void> {
  /** The caller, refused when it is the shared guest account (its alerts would reach every guest's browser). */
  const person = async (request: Parameters<typeof auth.requireUser>[0]): Promise<AuthUser> => {
    const user = await auth.requireUser(request);
    if (isGuestUsername(user.row.username)) throw new HttpError(403, PUSH_DETAILS.guest);
    return user;
  };

  app.get('/push/public-key', async (request): Promise<{ data: PushPublicKey }> => {
    const user = await person(request);
    return ok({ public_key: alerts.publicKey, enabled: await pushAlertsOn(db, user.sub) });
  });

  app.post('/push/subscriptions', async (request, reply): Promise<{ data: PushSettings }> => {
    const user = await person(request);
    const body = parseInput(pushSubscriptionInputSchema, request.body ?? {});
    await db.transaction((tx) => saveSubscription(tx, user.sub, { endpoint: body.endpoint, p256dh: body.keys.p256dh, auth: body.keys.auth }));
    void reply.code(201);
    return ok({ enabled: true });
  });

  app.delete('/push/subscriptions', async (request): Promise<{ data: PushSettings }> => {
    const user = await person(request);
    const { endpoint } = parseInput(pushEndpointQuerySchema, request.query ?? {}, 'Query');
    await db.transaction(async (tx) => {
      await removeSubscription(tx, user.sub, endpoint);
      await setPushAlerts(tx, user.sub, false);
    });
    return ok({ enabled: false });
  });

  app.post('/push/test', async (request): Promise<{ data: PushTestResult }> => {
    const user = await person(request);
    if ((await alertSubscriptions(db, user.sub)).length === 0) throw new HttpError(409, PUSH_DETAILS.notOn);
    return ok(await alerts.sendTest(user.sub));
  });
}
