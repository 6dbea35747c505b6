import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUSH_ALERT_TEXTS } from '../../../src/config/push-texts.ts';
import { ROUTES } from '../../../src/config/routes.ts';
import { STORY_TOOLS } from '../../../src/config/story.ts';
import {
  pushAlertPayloadSchema,
  pushPublicKeySchema,
  pushSettingsSchema,
  pushTestResultSchema,
} from '../../../src/services/schemas/push.ts';
import { storySchema, type Story } from '../../../src/services/schemas/story.ts';
import { DEFAULT_VAPID_SUBJECT, loadVapidDetails } from '../../../server/src/push/vapid.ts';
import { PUSH_DETAILS } from '../../../server/src/routes/push.ts';
import { asMedia, hasEnded, pollStatus, postForm } from '../helpers/media.ts';
import { startPushService, type BrowserSubscription, type PushServiceStandIn } from '../helpers/push-service.ts';
import { callApi, signUpUser, startTestServer, type TestServer } from '../helpers/server.ts';

/**
 * Done alerts (issue 21 item 3) against the real server and a local stand-in of a push service
 * (tests/server/helpers/push-service.ts), which checks each push's VAPID JWT and decrypts its
 * payload with the subscription's own private key, as the browser's push service and browser do.
 */

let server: TestServer;
let push: PushServiceStandIn;
type User = Awaited<ReturnType<typeof signUpUser>>;

beforeAll(async () => {
  push = await startPushService();
  server = await startTestServer({ jobs: { durationMs: 30, pollIntervalMs: 100 }, push: { agent: push.agent } });
});

afterAll(async () => {
  await server?.close();
  await push?.close();
});

const publicKeyOf = async (user: User) => pushPublicKeySchema.parse((await callApi(server, 'push/public-key', { token: user.accessToken })).body?.data);

async function subscribe(user: User): Promise<BrowserSubscription> {
  const subscription = push.subscribe();
  const answer = await callApi(server, 'push/subscriptions', { method: 'POST', token: user.accessToken, json: subscription.json });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  expect(pushSettingsSchema.parse(answer.body?.data)).toEqual({ enabled: true });
  return subscription;
}

/** A text-to-image job of `user`, waited for until it ends; answers its id and status. */
async function runJob(user: User, prompt: string): Promise<{ id: string; status: string }> {
  const media = asMedia(await postForm(server, 'image/text-2-image', { prompt, aspect_ratio: '1:1' }, { token: user.accessToken }));
  return { id: media.id, status: await pollStatus(server, media.id, hasEnded) };
}

const pushesTo = (subscription: BrowserSubscription) => push.received.filter((item) => item.endpoint === subscription.json.endpoint);

describe('the push calls', () => {
  it('answers the server VAPID public key, generated once and kept in the database, and the person opt-in', async () => {
    const user = await signUpUser(server, 'keys');
    expect((await callApi(server, 'push/public-key')).status).toBe(401);
    const first = await publicKeyOf(user);
    expect(first.enabled).toBe(false);
    // An uncompressed P-256 point (65 bytes), as pushManager.subscribe's applicationServerKey takes it.
    expect(Buffer.from(first.public_key, 'base64url')).toHaveLength(65);
    expect((await publicKeyOf(user)).public_key).toBe(first.public_key);
    // Another process on this database reads the same pair instead of making its own.
    expect((await loadVapidDetails(server.db)).publicKey).toBe(first.public_key);
  });

  it('refuses the shared guest account: its alerts would reach every guest', async () => {
    const guest = await server.emulator.createUser({ username: 'guest', email: 'guest@kinora.local', password: 'guest-password-1' });
    for (const [path, method, json] of [
      ['push/public-key', 'GET', undefined],
      ['push/subscriptions', 'POST', push.subscribe().json],
      ['push/test', 'POST', undefined],
    ] as const) {
      const answer = await callApi(server, path, { method, token: guest.accessToken, json });
      expect(answer, `${method} ${path}`).toMatchObject({ status: 403, body: { detail: PUSH_DETAILS.guest } });
    }
    expect((await server.db.query("SELECT 1 FROM push_subscriptions s JOIN users u ON u.sub = s.user_sub WHERE u.username = 'guest'")).rowCount).toBe(0);
  });

  it('refuses a subscription that is not one, and keeps nothing of it', async () => {
    const user = await signUpUser(server, 'badsub');
    const good = push.subscribe().json;
    for (const json of [
      {},
      { ...good, endpoint: good.endpoint.replace('https:', 'http:') },
      { ...good, keys: { p256dh: good.keys.p256dh } },
      { ...good, keys: { ...good.keys, auth: 'not base64url!' } },
    ]) {
      const answer = await callApi(server, 'push/subscriptions', { method: 'POST', token: user.accessToken, json });
      expect(answer.status, JSON.stringify(json)).toBe(400);
      expect(answer.body?.detail).toMatch(/^Request body is invalid: /);
    }
    expect((await callApi(server, 'push/subscriptions', { method: 'DELETE', token: user.accessToken })).status).toBe(400);
    expect((await server.db.query('SELECT 1 FROM push_subscriptions WHERE user_sub = $1', [user.sub])).rowCount).toBe(0);
    expect((await publicKeyOf(user)).enabled).toBe(false);
    const test = await callApi(server, 'push/test', { method: 'POST', token: user.accessToken });
    expect(test).toMatchObject({ status: 409, body: { detail: PUSH_DETAILS.notOn } });
  });
});

describe('alerts', () => {
  it('sends a finished job to each subscribed browser, signed with the server key and encrypted for it', async () => {
    const user = await signUpUser(server, 'alerted');
    const [phone, laptop] = [await subscribe(user), await subscribe(user)];
    const { public_key: publicKey, enabled } = await publicKeyOf(user);
    expect(enabled).toBe(true);
    const job = await runJob(user, 'a red fox in snow');
    expect(job.status).toBe('success_image');
    for (const browser of [phone, laptop]) {
      const [received] = await waitForPushes(browser, 1);
      expect(received?.vapidKey).toBe(publicKey);
      expect(received?.claims.sub).toBe(DEFAULT_VAPID_SUBJECT);
      expect(received?.headers.ttl).toBe('86400');
      expect(pushAlertPayloadSchema.parse(received?.payload)).toEqual({
        title: PUSH_ALERT_TEXTS.jobSucceeded('Text to Image'),
        body: PUSH_ALERT_TEXTS.resultReady,
        url: ROUTES.aiImage.textToImage,
        tag: `kinora-job-${job.id}`,
      });
    }
    expect(push.problems).toEqual([]);
    // Announced once: the row says so.
    const { rows } = await server.db.query<{ alerted_at: Date | null }>('SELECT alerted_at FROM media WHERE id = $1', [job.id]);
    expect(rows[0]?.alerted_at).toBeInstanceOf(Date);
  });

  it('says a failed job failed, with the reason', async () => {
    const user = await signUpUser(server, 'failing');
    const browser = await subscribe(user);
    const job = await runJob(user, 'a boat [fail]');
    expect(job.status).toBe('failed');
    const [received] = await waitForPushes(browser, 1);
    const payload = pushAlertPayloadSchema.parse(received?.payload);
    expect(payload.title).toBe(PUSH_ALERT_TEXTS.jobFailed('Text to Image'));
    expect(payload.body).toMatch(/refunded/);
  });

  it('announces a story step once, when its last part is done', async () => {
    const user = await signUpUser(server, 'storyalert');
    const browser = await subscribe(user);
    const idea = 'Mara, a young fisher, finds a glowing shell on the beach. She carries it to the old lighthouse at night.';
    const created = storySchema.parse((await postForm(server, 'story', { idea, duration: '15' }, { token: user.accessToken })).body?.data);
    const answer = await postForm(server, `story/${created.id}/elements`, { storyboard: JSON.stringify(created.storyboard) }, { token: user.accessToken });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const story: Story = storySchema.parse(answer.body?.data);
    const parts = story.storyboard.elements.map((element) => element.image?.media_id ?? '');
    expect(parts.length).toBeGreaterThan(1);
    for (const id of parts) await pollStatus(server, id, hasEnded);
    const [received] = await waitForPushes(browser, 1);
    expect(pushAlertPayloadSchema.parse(received?.payload)).toEqual({
      title: PUSH_ALERT_TEXTS.storyStep('element pictures'),
      body: PUSH_ALERT_TEXTS.partsSummary(parts.length, 0),
      url: ROUTES.aiProduction.story(created.id),
      tag: `kinora-story-${created.id}-${STORY_TOOLS.element}`,
    });
    // Every part was claimed by that one alert, and a restart (which waits for the alerts in
    // flight) shows no second one went out.
    const { rows } = await server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM media WHERE story_id = $1 AND alerted_at IS NOT NULL', [created.id]);
    expect(rows[0]?.n).toBe(parts.length);
    await server.restart();
    expect(pushesTo(browser)).toHaveLength(1);
  });

  it('sends a test alert, and deletes a subscription the push service says is gone (410)', async () => {
    const user = await signUpUser(server, 'tester');
    const [kept, gone] = [await subscribe(user), await subscribe(user)];
    push.answer(gone.json.endpoint, 410);
    const answer = await callApi(server, 'push/test', { method: 'POST', token: user.accessToken });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(pushTestResultSchema.parse(answer.body?.data)).toEqual({ sent: 1, failed: 0, removed: 1 });
    const [received] = await waitForPushes(kept, 1);
    expect(pushAlertPayloadSchema.parse(received?.payload)).toMatchObject({ title: PUSH_ALERT_TEXTS.testTitle, url: ROUTES.account });
    const { rows } = await server.db.query<{ endpoint: string }>('SELECT endpoint FROM push_subscriptions WHERE user_sub = $1', [user.sub]);
    expect(rows.map((row) => row.endpoint)).toEqual([kept.json.endpoint]);
  });

  it('keeps the error of a push service that refuses (500) on the subscription and counts it failed', async () => {
    const user = await signUpUser(server, 'refused');
    const browser = await subscribe(user);
    push.answer(browser.json.endpoint, 500);
    const answer = await callApi(server, 'push/test', { method: 'POST', token: user.accessToken });
    expect(pushTestResultSchema.parse(answer.body?.data)).toEqual({ sent: 0, failed: 1, removed: 0 });
    const { rows } = await server.db.query<{ last_error: string | null }>('SELECT last_error FROM push_subscriptions WHERE endpoint = $1', [browser.json.endpoint]);
    expect(rows[0]?.last_error).toMatch(/^500 /);
  });

  it('sends nothing once the person turned alerts off', async () => {
    const user = await signUpUser(server, 'optout');
    const [here, elsewhere] = [await subscribe(user), await subscribe(user)];
    const off = await callApi(server, `push/subscriptions?endpoint=${encodeURIComponent(here.json.endpoint)}`, { method: 'DELETE', token: user.accessToken });
    expect(off.status).toBe(200);
    expect(pushSettingsSchema.parse(off.body?.data)).toEqual({ enabled: false });
    expect((await publicKeyOf(user)).enabled).toBe(false);
    const job = await runJob(user, 'a lighthouse at dusk');
    expect(job.status).toBe('success_image');
    // The job's alert was taken (its turn came), and a restart waits for the alerts in flight: none went out.
    await untilAlerted(job.id);
    await server.restart();
    expect([...pushesTo(here), ...pushesTo(elsewhere)]).toEqual([]);
    const test = await callApi(server, 'push/test', { method: 'POST', token: user.accessToken });
    expect(test).toMatchObject({ status: 409, body: { detail: PUSH_DETAILS.notOn } });
  });
});

async function waitForPushes(browser: BrowserSubscription, count: number) {
  const deadline = Date.now() + 10_000;
  while (pushesTo(browser).length < count) {
    if (Date.now() > deadline) throw new Error(`${pushesTo(browser).length} pushes reached the browser, not ${count}; problems: ${push.problems.join('; ') || 'none'}`);
    await push.waitFor(push.received.length + 1, deadline - Date.now()).catch(() => undefined);
  }
  return pushesTo(browser);
}

async function untilAlerted(jobId: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const { rows } = await server.db.query<{ alerted_at: Date | null }>('SELECT alerted_at FROM media WHERE id = $1', [jobId]);
    if (rows[0]?.alerted_at) return;
    if (Date.now() > deadline) throw new Error(`job ${jobId} was never taken for an alert`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
