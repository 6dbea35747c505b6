import { describe, expect, it } from 'vitest';
import { assign, createActor, createMachine } from 'xstate';
import { createInspectionHub } from '@/lib/inspection/hub';
import { buildInspectorLog, InspectorLogError } from '@/lib/inspection/log-file';
import {
  buildProblemReport,
  parseInspectorFile,
  PROBLEM_REPORT_RECORDS,
  recordsForJob,
  scrubSecrets,
  type ProblemReportParts,
} from '@/lib/inspection/problem-report';

/** What a browser of a signed-in person holds, and what a person typed while the log was recorded. */
const ACCESS_TOKEN = 'eyJraWQiOiJsb2NhbCIsImFsZyI6IlJTMjU2In0.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJlLW9mLWFsaWNl';
const REFRESH_TOKEN = 'opaque-refresh-token-of-alice-0123456789';
const PASSWORD = 'correct horse battery staple';
const CODE = '482913';
const SIGNATURE = 'f00dfacecafebeef1234';

/** A sign-in form machine that keeps everything a careless machine could keep in its context. */
const signInMachine = createMachine({
  id: 'authForms',
  types: {} as {
    context: Record<string, unknown>;
    events: { type: 'submit'; password: string } | { type: 'confirm'; code: string } | { type: 'fail'; message: string };
  },
  context: {},
  initial: 'form',
  states: {
    form: {
      on: {
        submit: {
          target: 'confirming',
          actions: assign(({ event }) => ({
            password: event.password,
            tokens: { accessToken: ACCESS_TOKEN, refreshToken: REFRESH_TOKEN },
            // Secrets under keys that do not say so: only the value gives them away.
            lastHeader: `Bearer ${ACCESS_TOKEN}`,
            resultLink: `/api/files/result.png?exp=1700000000&sig=${SIGNATURE}`,
            echo: REFRESH_TOKEN,
          })),
        },
      },
    },
    confirming: {
      on: {
        confirm: { target: 'done', actions: assign(({ event }) => ({ code: event.code, otpDigits: event.code })) },
        fail: { target: 'form', actions: assign(({ event }) => ({ error: event.message })) },
      },
    },
    done: {},
  },
});

function parts(overrides: Partial<ProblemReportParts> = {}): ProblemReportParts {
  const hub = createInspectionHub();
  const actor = createActor(signInMachine, { id: 'authForms', inspect: hub.inspect }).start();
  actor.send({ type: 'submit', password: PASSWORD });
  actor.send({ type: 'fail', message: `Token ${ACCESS_TOKEN} was refused` });
  actor.send({ type: 'submit', password: PASSWORD });
  actor.send({ type: 'confirm', code: CODE });
  return {
    note: `It failed after I typed ${PASSWORD}`,
    environment: { appVersion: '0.1.0', mode: 'local', path: `/authentication?code=${CODE}&state=xyz`, userAgent: 'Test', language: 'en', viewport: { width: 1280, height: 800 } },
    job: null,
    serverHistory: { events: [{ kind: 'finished', detail: `download /api/files/a.png?sig=${SIGNATURE}` }] },
    records: hub.records(),
    messages: hub.messages(),
    secrets: [REFRESH_TOKEN, PASSWORD, 'short'],
    ...overrides,
  };
}

describe('a problem report', () => {
  it('never holds a token, a password, a one-time code or a link’s signature, wherever they were', () => {
    const report = buildProblemReport(parts());
    const text = JSON.stringify(report);
    for (const secret of [ACCESS_TOKEN, REFRESH_TOKEN, PASSWORD, SIGNATURE, `code=${CODE}`, `"${CODE}"`]) {
      expect(text).not.toContain(secret);
    }
    // It still says what happened: the states, the events, and that something was redacted.
    expect(report.log.records.some((record) => record.to === 'done')).toBe(true);
    expect(text).toContain('[redacted]');
    expect(report.app.path).toBe('/authentication');
    expect(report.note).toBe('It failed after I typed [redacted]');
  });

  it('reads back as a log the inspector replays, and a plain log still loads', () => {
    const report = buildProblemReport(parts());
    const loaded = parseInspectorFile(JSON.stringify(report));
    expect(loaded.report?.app.version).toBe('0.1.0');
    expect(loaded.log.records).toEqual(report.log.records);
    const plain = parseInspectorFile(JSON.stringify(buildInspectorLog(report.log.records)));
    expect(plain.report).toBeNull();
    expect(plain.log.records).toHaveLength(report.log.records.length);
    expect(() => parseInspectorFile('{"schema": "kinora.problem-report", "version": 1}')).toThrow(InspectorLogError);
    expect(() => parseInspectorFile('not json')).toThrow('it is not JSON');
  });

  it('carries the newest records only, up to its limit', () => {
    const base = parts();
    const one = base.records[0]!;
    const many = Array.from({ length: PROBLEM_REPORT_RECORDS + 10 }, (_, index) => ({ ...one, seq: index + 1 }));
    const report = buildProblemReport({ ...base, records: many });
    expect(report.log.records).toHaveLength(PROBLEM_REPORT_RECORDS);
    expect(report.log.records[0]!.seq).toBe(11);
  });

  it('redacts values under secret keys, and secret keys themselves', () => {
    expect(scrubSecrets({ password: 'x', nested: { idToken: 'y', [REFRESH_TOKEN]: 1 } }, [REFRESH_TOKEN])).toEqual({
      password: '[redacted]',
      nested: { idToken: '[redacted]', '[redacted]': '[redacted]' },
    });
  });

  it('for a job: its kept path, and what the registry and the session did in its time', () => {
    const at = 1_000_000;
    const record = (actorId: string, time: number, seq: number) => ({ seq, time, actorId, sessionId: actorId, machineId: actorId, type: 'snapshot' as const });
    const page = [record('jobs', at - 60_000, 1), record('jobs', at + 10, 2), record('job-1', at + 20, 3), record('session', at + 30, 4), record('banner', at + 40, 5)];
    const job = { localId: 'job-1', createdAt: at, finishedAt: at + 1000 };
    expect(recordsForJob(page, null, job, at + 2000).map((entry) => `${entry.actorId}@${entry.time}`)).toEqual([
      `jobs@${at + 10}`,
      `job-1@${at + 20}`,
      `session@${at + 30}`,
    ]);
    const saved = [record('job-1', at - 5, 1), record('job-1', at + 500, 2)];
    const withSaved = recordsForJob(page, saved, job, at + 2000);
    expect(withSaved.filter((entry) => entry.actorId === 'job-1').map((entry) => entry.time)).toEqual([at - 5, at + 500]);
    expect(withSaved.map((entry) => entry.seq)).toEqual([1, 2, 3, 4]);
  });
});
