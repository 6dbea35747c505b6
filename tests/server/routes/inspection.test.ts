import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toJsonSafe } from '../../../src/lib/inspection/json-safe.ts';
import { inspectionRecordSchema } from '../../../src/lib/inspection/log-file.ts';
import {
  JOB_LOG_MAX_BYTES,
  PROBLEM_REPORT_MAX_BYTES,
  inspectionRecordWireSchema,
  jobHistorySchema,
  jobLogSavedSchema,
  jobLogSchema,
  problemReportListSchema,
  problemReportSavedSchema,
} from '../../../src/services/schemas/inspection.ts';
import { buildApp } from '../../../server/src/app.ts';
import { redactJson, redactText } from '../../../server/src/lib/redact.ts';
import { INSPECTION_DETAILS } from '../../../server/src/routes/inspection.ts';
import { INSPECTION_RETENTION_TASK, applyInspectionRetention } from '../../../server/src/scheduler/inspection-retention.ts';
import { asMedia, postForm } from '../helpers/media.ts';
import { TEST_API_KEY, callApi, signUpUser, startTestServer, type TestServer } from '../helpers/server.ts';

/**
 * The QA inspector's server calls (issue 22 items 1 and 5): job logs kept with the job for a week,
 * the job's server-side history, problem reports (local mode only), all redacted before they are
 * written. Every generation job of this server fails (failureRate 1), so each is refunded.
 */

let server: TestServer;
let owner: Awaited<ReturnType<typeof signUpUser>>;
let other: Awaited<ReturnType<typeof signUpUser>>;
beforeAll(async () => {
  server = await startTestServer({ jobs: { durationMs: 30, pollIntervalMs: 100, failureRate: 1 } });
  owner = await signUpUser(server, 'inspected');
  other = await signUpUser(server, 'stranger');
});
afterAll(async () => {
  await server?.close();
});

const record = (seq: number, context: Record<string, unknown> = {}) => ({
  seq,
  time: 1_760_000_000_000 + seq,
  actorId: 'job-1',
  sessionId: 'x:3',
  machineId: 'generationJob',
  type: 'snapshot' as const,
  event: 'job.submit',
  from: 'editing',
  to: { polling: 'waiting' },
  status: 'active',
  context,
});

/** A media record without a job (free): something to keep a log with. */
async function newMedia(token: string): Promise<string> {
  return asMedia(await postForm(server, 'media', { title: 'inspected' }, { token })).id;
}

const putLog = (id: string, token: string | undefined, json: unknown) =>
  callApi(server, `media/${id}/inspection-log`, { method: 'PUT', token, json });

describe('job logs', () => {
  it('keeps the owner’s log with the job, replaces it on a second save, and answers it back', async () => {
    const id = await newMedia(owner.accessToken);
    expect((await callApi(server, `media/${id}/inspection-log`, { token: owner.accessToken })).status).toBe(404);

    const first = await putLog(id, owner.accessToken, { records: [record(1)] });
    expect(first.status).toBe(200);
    const saved = jobLogSavedSchema.parse(first.body?.data);
    expect(saved.media_id).toBe(id);
    expect(saved.bytes).toBeGreaterThan(0);

    const messages = [{ seq: 1, type: 'event', fromId: null, toId: 'job-1', event: 'job.submit' }];
    expect((await putLog(id, owner.accessToken, { records: [record(1), record(2)], messages })).status).toBe(200);
    const answer = await callApi(server, `media/${id}/inspection-log`, { token: owner.accessToken });
    expect(answer.status).toBe(200);
    const log = jobLogSchema.parse(answer.body?.data);
    expect(log.records.map((item) => item.seq)).toEqual([1, 2]);
    expect(log.records[1]).toEqual(record(2));
    expect(log.messages).toEqual(messages);
    expect(new Date(log.saved_at).getTime()).toBeGreaterThanOrEqual(new Date(saved.saved_at).getTime());
    const { rows } = await server.db.query<{ n: number }>('SELECT count(*)::integer AS n FROM job_logs WHERE media_id = $1', [id]);
    expect(rows[0]?.n).toBe(1);
  });

  it('is the owner’s only: another person gets 404 for every call, nobody signed in 401', async () => {
    const id = await newMedia(owner.accessToken);
    expect((await putLog(id, owner.accessToken, { records: [record(1)] })).status).toBe(200);
    expect(await putLog(id, other.accessToken, { records: [record(9)] })).toMatchObject({ status: 404, body: { detail: 'Not found.' } });
    expect((await callApi(server, `media/${id}/inspection-log`, { token: other.accessToken })).status).toBe(404);
    expect((await callApi(server, `media/${id}/history`, { token: other.accessToken })).status).toBe(404);
    expect((await putLog(id, undefined, { records: [] })).status).toBe(401);
    expect((await callApi(server, `media/${id}/inspection-log`)).status).toBe(401);
    expect((await callApi(server, `media/${id}/history`)).status).toBe(401);
    expect((await putLog('no-such-media', owner.accessToken, { records: [] })).status).toBe(404);
    // The other person's attempt changed nothing.
    const log = jobLogSchema.parse((await callApi(server, `media/${id}/inspection-log`, { token: owner.accessToken })).body?.data);
    expect(log.records.map((item) => item.seq)).toEqual([1]);
  });

  it('refuses a body that is not a log (400) or is over 256 KB (413, said plainly)', async () => {
    const id = await newMedia(owner.accessToken);
    const bad = await putLog(id, owner.accessToken, { records: [{ seq: -1 }] });
    expect(bad.status).toBe(400);
    expect(bad.body?.detail).toMatch(/^Request body is invalid: records\.0/);
    expect((await putLog(id, owner.accessToken, { messages: [] })).status).toBe(400);

    const filler = 'x'.repeat(400);
    const records = Array.from({ length: Math.ceil(JOB_LOG_MAX_BYTES / 400) + 10 }, (_, seq) => record(seq, { filler }));
    expect(JSON.stringify({ records }).length).toBeGreaterThan(JOB_LOG_MAX_BYTES);
    const tooLarge = await putLog(id, owner.accessToken, { records });
    expect(tooLarge).toMatchObject({ status: 413, body: { detail: INSPECTION_DETAILS.jobLogTooLarge } });
    expect(INSPECTION_DETAILS.jobLogTooLarge).toBe('The inspector log is too large: at most 256 KB can be saved with a job.');
    // Just under the limit is kept.
    const fits = records.slice(0, Math.floor((JOB_LOG_MAX_BYTES - 1024) / JSON.stringify(records[0]).length));
    expect((await putLog(id, owner.accessToken, { records: fits })).status).toBe(200);
  });

  it('stores no password, token or bearer credential, wherever it sits', async () => {
    const id = await newMedia(owner.accessToken);
    const context = {
      password: 'hunter2',
      idToken: 'eyJhbGciOi.eyJzdWIi.c2ln',
      note: 'Bearer abc.def',
      nested: { list: [{ apiKey: 'k-123456789', said: 'sent eyJhbGciOi.eyJzdWIi.c2ln to the server' }] },
      link: 'http://127.0.0.1/api/files/f1?expires=1760000000&signature=abcdef0123456789',
      code: '123456',
      prompt: 'a cat in a hat',
    };
    expect((await putLog(id, owner.accessToken, { records: [record(1, context)], messages: [{ authorization: 'raw-token' }] })).status).toBe(200);
    const { rows } = await server.db.query<{ text: string }>('SELECT log::text AS text FROM job_logs WHERE media_id = $1', [id]);
    const stored = rows[0]?.text ?? '';
    for (const secret of ['hunter2', 'eyJhbGciOi', 'abc.def', 'k-123456789', 'abcdef0123456789', '123456', 'raw-token']) {
      expect(stored).not.toContain(secret);
    }
    const log = jobLogSchema.parse((await callApi(server, `media/${id}/inspection-log`, { token: owner.accessToken })).body?.data);
    expect(log.records[0]?.context).toEqual({
      password: '[redacted]',
      idToken: '[redacted]',
      note: '[redacted]',
      nested: { list: [{ apiKey: '[redacted]', said: 'sent [redacted] to the server' }] },
      link: 'http://127.0.0.1/api/files/f1?expires=1760000000&signature=[redacted]',
      code: '[redacted]',
      prompt: 'a cat in a hat',
    });
    expect(log.messages).toEqual([{ authorization: '[redacted]' }]);
  });

  it('forgets a log after 7 days: reads ignore it and the retention task deletes it', async () => {
    const id = await newMedia(owner.accessToken);
    const fresh = await newMedia(owner.accessToken);
    expect((await putLog(id, owner.accessToken, { records: [record(1)] })).status).toBe(200);
    expect((await putLog(fresh, owner.accessToken, { records: [record(1)] })).status).toBe(200);
    await server.db.query("UPDATE job_logs SET saved_at = clock_timestamp() - interval '7 days 1 minute' WHERE media_id = $1", [id]);
    expect((await callApi(server, `media/${id}/inspection-log`, { token: owner.accessToken })).status).toBe(404);
    const history = jobHistorySchema.parse((await callApi(server, `media/${id}/history`, { token: owner.accessToken })).body?.data);
    expect(history.events.map((event) => event.kind)).not.toContain('log-saved');

    const result = await server.db.transaction((tx) => applyInspectionRetention(tx));
    expect(result.jobLogs).toBeGreaterThanOrEqual(1);
    const { rows } = await server.db.query<{ media_id: string }>('SELECT media_id FROM job_logs WHERE media_id = ANY($1::text[])', [[id, fresh]]);
    expect(rows.map((row) => row.media_id)).toEqual([fresh]);
    expect((await callApi(server, `media/${fresh}/inspection-log`, { token: owner.accessToken })).status).toBe(200);
  });

  it('goes with its job', async () => {
    const id = await newMedia(owner.accessToken);
    expect((await putLog(id, owner.accessToken, { records: [record(1)] })).status).toBe(200);
    expect((await callApi(server, `media/${id}`, { method: 'DELETE', token: owner.accessToken })).status).toBe(200);
    const { rows } = await server.db.query('SELECT 1 FROM job_logs WHERE media_id = $1', [id]);
    expect(rows).toEqual([]);
  });
});

describe('GET media/{id}/history', () => {
  it('tells a failed, refunded job’s life in time order: queued, charged, attempt, finished, refunded, log saved', async () => {
    const answer = await postForm(server, 'image/text-2-image', { prompt: 'a lighthouse', async_mode: 'false' }, { token: owner.accessToken });
    expect(answer.status).toBe(200);
    const job = asMedia(answer);
    expect(job.status).toBe('failed');
    await server.db.query('UPDATE media SET attempts = 2 WHERE id = $1', [job.id]);
    expect((await putLog(job.id, owner.accessToken, { records: [record(1)] })).status).toBe(200);

    const history = jobHistorySchema.parse((await callApi(server, `media/${job.id}/history`, { token: owner.accessToken })).body?.data);
    expect(history).toMatchObject({ media_id: job.id, tool: 'text-to-image', status: 'failed', charged: true, attempts: 2 });
    expect(history.cost).toBeGreaterThan(0);
    expect(history.error).toBeTruthy();
    expect(history.finished_at).not.toBeNull();
    expect(history.events.map((event) => event.kind)).toEqual(['queued', 'charged', 'attempt', 'finished', 'refunded', 'log-saved']);
    const byKind = Object.fromEntries(history.events.map((event) => [event.kind, event]));
    expect(byKind.queued?.at).toBe(history.created_at);
    expect(byKind.charged?.detail).toMatch(new RegExp(`^${history.cost} credits: `));
    expect(byKind.finished).toMatchObject({ at: history.finished_at, detail: `failed: ${history.error}` });
    expect(byKind.refunded?.detail).toBe(`${history.cost} credits: Refund: the generation failed`);
    expect(byKind['log-saved']?.detail).toMatch(/^\d+ bytes$/);
  });

  it('of a record without a job: queued and finished, nothing charged', async () => {
    const id = await newMedia(owner.accessToken);
    const history = jobHistorySchema.parse((await callApi(server, `media/${id}/history`, { token: owner.accessToken })).body?.data);
    expect(history.charged).toBe(false);
    expect(history.events.map((event) => event.kind)).toEqual(['queued', 'finished']);
  });
});

const bundle = (overrides: Record<string, unknown> = {}) => ({
  schema: 'kinora.problem-report',
  version: 1,
  createdAt: '2026-01-02T03:04:05.000Z',
  note: 'The picture never came\nsecond line',
  app: { version: '0.1.0', mode: 'local', path: '/ai-image/text-to-image' },
  browser: { userAgent: 'Test', language: 'en', viewport: { width: 1280, height: 800 } },
  job: { localId: 'job-1', mediaId: 'm1', tool: 'text-to-image', toolTitle: 'Text to Image', outcome: 'failed' },
  serverHistory: null,
  log: { records: [record(1, { password: 'hunter2', idToken: 'eyJhbGciOi.eyJzdWIi.c2ln', note: 'Bearer abc.def' })] },
  ...overrides,
});

const report = (token: string | undefined, json: unknown, target: Pick<TestServer, 'url' | 'apiKey'> = server) =>
  callApi(target, 'problem-reports', { method: 'POST', token, json });

describe('problem reports (local mode)', () => {
  it('keeps a redacted report with a title and answers it back to its sender', async () => {
    const sent = await report(owner.accessToken, bundle());
    expect(sent.status).toBe(201);
    const saved = problemReportSavedSchema.parse(sent.body?.data);
    expect(saved.title).toBe('Text to Image · failed');
    const { rows } = await server.db.query<{ text: string; bytes: number }>('SELECT bundle::text AS text, bytes FROM problem_reports WHERE id = $1', [saved.id]);
    for (const secret of ['hunter2', 'eyJhbGciOi', 'abc.def']) expect(rows[0]?.text).not.toContain(secret);
    const read = await callApi<ReturnType<typeof bundle>>(server, `problem-reports/${saved.id}`, { token: owner.accessToken });
    expect(read.status).toBe(200);
    expect(read.body?.data).toMatchObject({ schema: 'kinora.problem-report', note: bundle().note, job: bundle().job });
    expect(read.body?.data?.log.records[0]?.context).toEqual({ password: '[redacted]', idToken: '[redacted]', note: '[redacted]' });
    expect(Buffer.byteLength(JSON.stringify(read.body?.data))).toBeGreaterThan(0);
    expect(rows[0]?.bytes).toBeGreaterThan(0);

    // Titles: the note's first line without a job, else "Problem report".
    const noted = problemReportSavedSchema.parse((await report(owner.accessToken, bundle({ job: null, note: '\n  Stuck on upload \nmore' }))).body?.data);
    expect(noted.title).toBe('Stuck on upload');
    const bare = problemReportSavedSchema.parse((await report(owner.accessToken, bundle({ job: undefined, note: undefined }))).body?.data);
    expect(bare.title).toBe('Problem report');
  });

  it('refuses what is not a report (400), a report over 1 MB (413) and nobody signed in (401)', async () => {
    expect((await report(owner.accessToken, bundle({ schema: 'kinora.inspector-log' }))).status).toBe(400);
    expect((await report(owner.accessToken, bundle({ version: 2 }))).status).toBe(400);
    expect((await report(owner.accessToken, bundle({ log: { records: 'none' } }))).status).toBe(400);
    expect((await report(undefined, bundle())).status).toBe(401);
    const huge = bundle({ note: 'x'.repeat(PROBLEM_REPORT_MAX_BYTES) });
    expect(await report(owner.accessToken, huge)).toMatchObject({ status: 413, body: { detail: INSPECTION_DETAILS.problemReportTooLarge } });
  });

  it('lists the newest 50 first, keeps the newest 200, shows each person their own and developers all', async () => {
    const lister = await signUpUser(server, 'lister');
    // Their first call makes their users row, which the reports below refer to.
    expect(problemReportListSchema.parse((await callApi(server, 'problem-reports', { token: lister.accessToken })).body?.data).reports).toEqual([]);
    // 210 older reports of the lister, one second apart; the next POST trims to 200.
    await server.db.query(
      `INSERT INTO problem_reports (id, user_sub, title, bundle, bytes, created_at)
       SELECT 'old-' || lpad(n::text, 3, '0'), $1, 'Old ' || n, '{}'::jsonb, 2, clock_timestamp() - make_interval(secs => 1000 - n)
       FROM generate_series(1, 210) AS n`,
      [lister.sub],
    );
    const newest = problemReportSavedSchema.parse((await report(lister.accessToken, bundle({ job: null, note: 'Newest' }))).body?.data);
    const { rows } = await server.db.query<{ n: number }>('SELECT count(*)::integer AS n FROM problem_reports');
    expect(rows[0]?.n).toBe(200);

    const list = problemReportListSchema.parse((await callApi(server, 'problem-reports', { token: lister.accessToken })).body?.data);
    expect(list.reports).toHaveLength(50);
    expect(list.reports[0]).toMatchObject({ id: newest.id, title: 'Newest' });
    expect(list.reports[1]).toMatchObject({ id: 'old-210', title: 'Old 210', bytes: 2 });
    expect(list.reports.map((item) => item.created_at)).toEqual([...list.reports.map((item) => item.created_at)].sort().reverse());

    // Someone else sees neither the list nor a report; a developer sees both.
    const strangers = problemReportListSchema.parse((await callApi(server, 'problem-reports', { token: other.accessToken })).body?.data);
    expect(strangers.reports.map((item) => item.id)).not.toContain(newest.id);
    expect((await callApi(server, `problem-reports/${newest.id}`, { token: other.accessToken })).status).toBe(404);
    const developer = await server.emulator.createUser({
      username: `dev${Date.now().toString(36)}`,
      email: `dev${Date.now().toString(36)}@example.test`,
      password: 'secret-password-1',
      groups: ['Developer'],
    });
    const all = problemReportListSchema.parse((await callApi(server, 'problem-reports', { token: developer.accessToken })).body?.data);
    expect(all.reports[0]?.id).toBe(newest.id);
    expect((await callApi(server, `problem-reports/${newest.id}`, { token: developer.accessToken })).status).toBe(200);
    expect((await callApi(server, 'problem-reports/nope', { token: developer.accessToken })).status).toBe(404);
    expect((await callApi(server, 'problem-reports')).status).toBe(401);
  });
});

describe('outside local mode', () => {
  let app: FastifyInstance;
  let hosted: Pick<TestServer, 'url' | 'apiKey'>;
  beforeAll(async () => {
    // A second API process on the same database and emulator, as a hosted server runs; it also
    // schedules the retention task, every few milliseconds.
    app = await buildApp({
      db: server.db,
      role: 'api',
      identity: server.emulator.identity,
      apiKey: TEST_API_KEY,
      localMode: false,
      mediaDir: server.mediaDir,
      inspectionRetention: { intervalMs: 20, checkEveryMs: 10 },
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    hosted = { url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`, apiKey: TEST_API_KEY };
  });
  afterAll(async () => {
    await app?.close();
  });

  it('keeps no problem reports: every problem-reports call is 404', async () => {
    expect(await report(owner.accessToken, bundle(), hosted)).toMatchObject({ status: 404, body: { detail: 'Not found.' } });
    expect((await callApi(hosted, 'problem-reports', { token: owner.accessToken })).status).toBe(404);
    expect((await callApi(hosted, 'problem-reports/anything', { token: owner.accessToken })).status).toBe(404);
  });

  it('still keeps job logs and answers histories', async () => {
    const id = await newMedia(owner.accessToken);
    expect((await callApi(hosted, `media/${id}/inspection-log`, { method: 'PUT', token: owner.accessToken, json: { records: [record(1)] } })).status).toBe(200);
    expect((await callApi(hosted, `media/${id}/history`, { token: owner.accessToken })).status).toBe(200);
  });

  it('runs the retention task on its schedule', async () => {
    const id = await newMedia(owner.accessToken);
    expect((await putLog(id, owner.accessToken, { records: [record(1)] })).status).toBe(200);
    await server.db.query("UPDATE job_logs SET saved_at = clock_timestamp() - interval '8 days' WHERE media_id = $1", [id]);
    const deadline = Date.now() + 10_000;
    let rows: unknown[] = [{}];
    while (rows.length > 0 && Date.now() < deadline) {
      await sleep(20);
      ({ rows } = await server.db.query('SELECT 1 FROM job_logs WHERE media_id = $1', [id]));
    }
    expect(rows).toEqual([]);
    const task = await server.db.query<{ last_result: { jobLogs: number } }>('SELECT last_result FROM scheduled_tasks WHERE name = $1', [INSPECTION_RETENTION_TASK]);
    expect(task.rows[0]?.last_result).toHaveProperty('jobLogs');
  });
});

describe('the server’s copies of the web app’s rules', () => {
  it('redacts the same keys as the inspector (src/lib/inspection/json-safe.ts)', () => {
    const keys = ['password', 'newPassword', 'accessToken', 'idToken', 'clientSecret', 'apiKey', 'api_key', 'Authorization', 'cvc', 'otp', 'totpCode', 'code', 'cardNumber', 'card_number', 'prompt', 'codeLength', 'status', 'option', 'mediaId'];
    const value = Object.fromEntries(keys.map((key) => [key, 'plain']));
    expect(redactJson(value)).toEqual(toJsonSafe(value));
  });

  it('leaves ordinary text alone', () => {
    expect(redactText('A bear in a basic hat, eye level, 16:9')).toBe('A bear in a basic hat, eye level, 16:9');
    expect(redactText('Authorization: Bearer eyJ.x')).toBe('Authorization: [redacted]');
  });

  it('takes the records the inspector exports (src/lib/inspection/log-file.ts), and refuses what it refuses', () => {
    const valid = [record(1), { ...record(2), type: 'actor' as const, context: undefined, to: undefined, from: undefined, event: undefined }];
    for (const item of valid) {
      expect(inspectionRecordSchema.safeParse(item).success).toBe(true);
      expect(inspectionRecordWireSchema.safeParse(item).success).toBe(true);
    }
    const invalid = [{ ...record(1), seq: -1 }, { ...record(1), seq: 1.5 }, { ...record(1), type: 'other' }, { ...record(1), actorId: 3 }, { seq: 1 }];
    for (const item of invalid) {
      expect(inspectionRecordSchema.safeParse(item).success).toBe(false);
      expect(inspectionRecordWireSchema.safeParse(item).success).toBe(false);
    }
  });
});
