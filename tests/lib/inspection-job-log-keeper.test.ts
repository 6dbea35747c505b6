import { afterEach, describe, expect, it, vi } from 'vitest';
import { assign, createActor, createMachine } from 'xstate';
import { createInspectionHub } from '@/lib/inspection/hub';
import {
  JOB_LOG_KEEP_MS,
  JOB_LOG_LIMITS,
  JOB_LOG_WRITE_DELAY_MS,
  keptLogs,
  savedSessionId,
  startJobLogKeeper,
  trimRecords,
  type SavedJobLog,
  type SavedJobLogs,
} from '@/lib/inspection/job-log-keeper';
import { savedJobRecords, savedJobSummaries } from '@/lib/inspection/saved-job-logs';

/** A job machine as the keeper sees it: the id of the generation job's, a poll loop and final states. */
const jobMachine = createMachine({
  id: 'generationJob',
  types: {} as { context: { mediaId: string | null; toolTitle: string; idToken: string }; events: { type: 'submitted' } | { type: 'poll' } | { type: 'done' } },
  context: { mediaId: null, toolTitle: 'Text to Image', idToken: 'eyJsecret.token.value' },
  initial: 'submitting',
  states: {
    submitting: { on: { submitted: { target: 'polling', actions: assign({ mediaId: 'media-7' }) } } },
    polling: { on: { poll: 'polling', done: 'succeeded' } },
    succeeded: { type: 'final' },
  },
});

const otherMachine = createMachine({ id: 'session', initial: 'idle', states: { idle: { on: { go: 'busy' } }, busy: {} } });

function memoryStore(initial: unknown = null) {
  let value: unknown = initial;
  const writes: SavedJobLogs[] = [];
  return {
    writes,
    current: () => value,
    store: {
      read: () => value,
      write: (logs: SavedJobLogs) => {
        value = JSON.parse(JSON.stringify(logs)) as unknown;
        writes.push(logs);
        return true;
      },
    },
  };
}

const tick = () => new Promise<void>((resolve) => queueMicrotask(resolve));

afterEach(() => {
  vi.useRealTimers();
});

describe('the job log keeper', () => {
  it('writes a finished job’s path at once, with its media id, the context on the last record only, and no secret', async () => {
    const hub = createInspectionHub();
    const memory = memoryStore();
    const ended: SavedJobLog[] = [];
    const stop = startJobLogKeeper(hub, { store: memory.store, onJobEnded: (log) => ended.push(log), pageId: 'page-1' });
    const session = createActor(otherMachine, { id: 'session', inspect: hub.inspect }).start();
    const job = createActor(jobMachine, { id: 'job-1', inspect: hub.inspect }).start();
    job.send({ type: 'submitted' });
    job.send({ type: 'poll' });
    session.send({ type: 'go' });
    job.send({ type: 'done' });
    await tick();

    const logs = keptLogs(memory.current(), Date.now());
    const log = logs['job-1']!;
    expect(log.mediaId).toBe('media-7');
    expect(log.records.map((record) => record.to)).toEqual(['submitting', 'polling', 'polling', 'succeeded']);
    expect(log.records.every((record) => record.machineId === 'generationJob' && record.sessionId === savedSessionId('job-1'))).toBe(true);
    expect(log.records.slice(0, -1).every((record) => record.context === undefined)).toBe(true);
    expect(log.records.at(-1)?.context).toMatchObject({ mediaId: 'media-7', idToken: '[redacted]' });
    expect(JSON.stringify(memory.current())).not.toContain('eyJsecret');
    expect(ended.map((entry) => entry.actorId)).toEqual(['job-1']);
    // Nothing of the session's is kept.
    expect(Object.keys(logs)).toEqual(['job-1']);
    stop();
  });

  it('writes a running job’s path a moment after its records, and on stop', async () => {
    vi.useFakeTimers();
    const hub = createInspectionHub();
    const memory = memoryStore();
    const stop = startJobLogKeeper(hub, { store: memory.store, pageId: 'page-1' });
    const job = createActor(jobMachine, { id: 'job-2', inspect: hub.inspect }).start();
    job.send({ type: 'submitted' });
    await tick();
    expect(memory.writes).toHaveLength(0);
    vi.advanceTimersByTime(JOB_LOG_WRITE_DELAY_MS);
    expect(keptLogs(memory.current(), Date.now())['job-2']?.records.map((record) => record.to)).toEqual(['submitting', 'polling']);
    job.send({ type: 'poll' });
    await tick();
    stop();
    expect(keptLogs(memory.current(), Date.now())['job-2']?.records).toHaveLength(3);
  });

  it('appends a job resumed by a later page to the path an earlier page kept', async () => {
    const memory = memoryStore();
    const firstHub = createInspectionHub();
    const stopFirst = startJobLogKeeper(firstHub, { store: memory.store, pageId: 'page-1' });
    const before = createActor(jobMachine, { id: 'job-3', inspect: firstHub.inspect }).start();
    before.send({ type: 'submitted' });
    await tick();
    stopFirst();
    before.stop();

    // The reload: a new hub (sequence numbers and session ids start again) and the job resumed.
    const secondHub = createInspectionHub();
    const stopSecond = startJobLogKeeper(secondHub, { store: memory.store, pageId: 'page-2' });
    const after = createActor(jobMachine, { id: 'job-3', inspect: secondHub.inspect, snapshot: jobMachine.resolveState({ value: 'polling', context: { mediaId: 'media-7', toolTitle: 'Text to Image', idToken: 'x' } }) }).start();
    after.send({ type: 'done' });
    await tick();
    stopSecond();

    const records = savedJobRecords(memory.current(), Date.now(), { actorId: 'job-3' })!;
    expect(records.map((record) => record.to)).toEqual(['submitting', 'polling', 'polling', 'succeeded']);
    expect(records.map((record) => record.seq)).toEqual([1, 2, 3, 4]);
    // Found by its media id too (a job the server named).
    expect(savedJobRecords(memory.current(), Date.now(), { mediaId: 'media-7' })).toHaveLength(4);
    expect(savedJobSummaries(memory.current(), Date.now())).toEqual([
      expect.objectContaining({ actorId: 'job-3', mediaId: 'media-7', toolTitle: 'Text to Image', lastState: 'succeeded', records: 4 }),
    ]);
  });

  it('keeps a week’s newest jobs, and the start and the end of a long path', () => {
    const now = Date.now();
    const record = (seq: number) => ({ seq, time: now, actorId: 'a', sessionId: 's', machineId: 'generationJob', type: 'snapshot' as const, to: `s${seq}` });
    const log = (actorId: string, savedAt: number): SavedJobLog => ({ actorId, machineId: 'generationJob', mediaId: null, firstAt: savedAt, savedAt, pageId: 'p', records: [record(1)] });
    const stored: Record<string, unknown> = { old: log('old', now - JOB_LOG_KEEP_MS - 1), broken: { actorId: 'broken' } };
    for (let index = 0; index < JOB_LOG_LIMITS.jobs + 5; index += 1) stored[`job-${index}`] = log(`job-${index}`, now - index * 1000);
    const kept = keptLogs(stored, now);
    expect(Object.keys(kept)).toHaveLength(JOB_LOG_LIMITS.jobs);
    expect(kept.old).toBeUndefined();
    expect(kept.broken).toBeUndefined();
    expect(kept['job-0']).toBeDefined();
    expect(kept[`job-${JOB_LOG_LIMITS.jobs}`]).toBeUndefined();

    const long = Array.from({ length: JOB_LOG_LIMITS.records + 100 }, (_, index) => record(index + 1));
    const trimmed = trimRecords(long);
    expect(trimmed).toHaveLength(JOB_LOG_LIMITS.records);
    expect(trimmed[0]!.seq).toBe(1);
    expect(trimmed[JOB_LOG_LIMITS.head - 1]!.seq).toBe(JOB_LOG_LIMITS.head);
    expect(trimmed.at(-1)!.seq).toBe(long.length);
  });

  it('makes room by dropping the older half when the browser refuses the write', async () => {
    const now = Date.now();
    const stored: SavedJobLogs = {};
    for (let index = 0; index < 10; index += 1) {
      stored[`job-${index}`] = { actorId: `job-${index}`, machineId: 'generationJob', mediaId: null, firstAt: now, savedAt: now - (index + 1) * 1000, pageId: 'p', records: [] };
    }
    let value: unknown = stored;
    let refusals = 1;
    const store = {
      read: () => value,
      write: (logs: SavedJobLogs) => {
        if (refusals-- > 0) return false;
        value = logs;
        return true;
      },
    };
    const hub = createInspectionHub();
    const stop = startJobLogKeeper(hub, { store, pageId: 'page-1' });
    const job = createActor(jobMachine, { id: 'job-new', inspect: hub.inspect }).start();
    job.send({ type: 'submitted' });
    job.send({ type: 'done' });
    await tick();
    stop();
    const kept = keptLogs(value, Date.now());
    expect(kept['job-new']).toBeDefined();
    expect(Object.keys(kept)).toHaveLength(6);
    expect(kept['job-9']).toBeUndefined();
  });
});

describe('the kept paths’ list', () => {
  it('names a job’s last state as a person reads it', () => {
    const now = Date.now();
    const log = (actorId: string, to: unknown): SavedJobLog => ({
      actorId,
      machineId: 'generationJob',
      mediaId: null,
      firstAt: now,
      savedAt: now,
      pageId: 'p',
      records: [{ seq: 1, time: now, actorId, sessionId: 's', machineId: 'generationJob', type: 'snapshot', to: to as never }],
    });
    const summaries = savedJobSummaries({ a: log('a', { polling: 'waiting' }), b: log('b', 'succeeded'), c: log('c', { run: { step: 'one' }, ui: 'idle' }) }, now);
    expect(Object.fromEntries(summaries.map((summary) => [summary.actorId, summary.lastState]))).toEqual({
      a: 'polling.waiting',
      b: 'succeeded',
      c: 'run.step.one, ui.idle',
    });
  });
});
