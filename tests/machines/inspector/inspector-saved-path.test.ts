import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { createInspectionHub } from '@/lib/inspection/hub';
import { savedSessionId, type SavedJobLogs } from '@/lib/inspection/job-log-keeper';
import type { StatechartLayout } from '@/lib/inspection/statechart-layout';
import { inspectorMachine, type ProblemReportSummary, type SavedPath } from '@/machines/inspector/inspector.machine';
import { selectMode, selectReportsStatus, viewedState, visitedPaths } from '@/machines/inspector/inspector.selectors';
import { buildInspectorLog } from '@/lib/inspection/log-file';

/**
 * Issue 22 item 1: a job that is not alive in this page (a reload, another tab) opens from its kept
 * path; its chart marks every state it passed through. Item 5: the problem reports a local Kinora
 * keeps replay the same way.
 */
const now = Date.now();
const snapshot = (seq: number, from: string | null, to: string, status = 'active') => ({
  seq,
  time: now - 10_000 + seq * 100,
  actorId: 'job-9',
  sessionId: savedSessionId('job-9'),
  machineId: 'generationJob',
  type: 'snapshot' as const,
  event: 'x',
  from,
  to,
  snapshotValue: to,
  status,
});

const kept: SavedJobLogs = {
  'job-9': {
    actorId: 'job-9',
    machineId: 'generationJob',
    mediaId: 'media-9',
    firstAt: now - 10_000,
    savedAt: now - 5_000,
    pageId: 'earlier-page',
    records: [snapshot(1, null, 'submitting'), snapshot(2, 'submitting', 'polling'), snapshot(3, 'polling', 'failed', 'done')],
  },
};

const layoutStub = fromPromise<StatechartLayout, { machineId: string }>(async ({ input }) => ({ machineId: input.machineId, width: 10, height: 10, nodes: [], edges: [] }));

function start(input: { preselectActorId?: string | null; preselectMediaId?: string | null; stored?: unknown; local?: boolean }, actors: Record<string, unknown> = {}) {
  const machine = inspectorMachine.provide({ actors: { layout: layoutStub, ...actors } as never });
  return createActor(machine, {
    input: {
      hub: createInspectionHub(),
      preselectActorId: input.preselectActorId ?? null,
      preselectMediaId: input.preselectMediaId ?? null,
      readSavedLogs: () => input.stored ?? null,
      local: input.local ?? false,
    },
  }).start();
}

describe('the inspector and kept job paths', () => {
  it('opens a job of the URL that is not alive here from its kept path, as a replay of the job’s chart', async () => {
    const inspector = start({ preselectActorId: 'job-9', stored: kept });
    await waitFor(inspector, (state) => selectMode(state) === 'replayStopped');
    const { context } = inspector.getSnapshot();
    expect(context.machineId).toBe('generationJob');
    expect(context.selectedSessionId).toBe(savedSessionId('job-9'));
    expect(context.records.map((record) => record.to)).toEqual(['submitting', 'polling', 'failed']);
    expect(context.loadedName).toBe('this job’s kept path (this browser)');
    expect(context.savedJobs).toEqual([expect.objectContaining({ actorId: 'job-9', lastState: 'failed', records: 3 })]);
    // At its end, the chart marks the whole path and the job's last state.
    expect(viewedState(context.records, context.selectedSessionId, null).value).toBe('failed');
    expect([...visitedPaths(context.records, context.selectedSessionId, null)].sort()).toEqual(['failed', 'polling', 'submitting']);
    // At the start of the replay, only the first state was passed.
    expect([...visitedPaths(context.records, context.selectedSessionId, context.cursor)]).toEqual(['submitting']);
  });

  it('lists the kept paths and opens one on request, then goes back to live', async () => {
    const inspector = start({ stored: kept });
    expect(selectMode(inspector.getSnapshot())).toBe('following');
    expect(inspector.getSnapshot().context.savedJobs.map((job) => job.actorId)).toEqual(['job-9']);
    inspector.send({ type: 'inspector.openSaved', actorId: 'job-9' });
    await waitFor(inspector, (state) => selectMode(state) === 'replayStopped');
    inspector.send({ type: 'inspector.live' });
    expect(selectMode(inspector.getSnapshot())).toBe('following');
  });

  it('asks the server for a job this browser did not keep (by its media id), and says so when there is none', async () => {
    const asked: { actorId: string | null; mediaId: string | null }[] = [];
    const fromServer = fromPromise<SavedPath, { actorId: string | null; mediaId: string | null }>(async ({ input }) => {
      asked.push({ actorId: input.actorId, mediaId: input.mediaId });
      if (input.mediaId !== 'media-on-server') throw new Error('No kept path for this job.');
      return { actorId: 'job-elsewhere', records: kept['job-9']!.records.map((record) => ({ ...record, actorId: 'job-elsewhere', sessionId: savedSessionId('job-elsewhere') })), where: 'server' };
    });
    const found = start({ preselectMediaId: 'media-on-server' }, { readSavedPath: fromServer });
    await waitFor(found, (state) => selectMode(state) === 'replayStopped');
    expect(found.getSnapshot().context.loadedName).toBe('this job’s kept path (the server)');
    expect(found.getSnapshot().context.selectedSessionId).toBe(savedSessionId('job-elsewhere'));

    const missing = start({ preselectMediaId: 'media-gone' }, { readSavedPath: fromServer });
    await waitFor(missing, (state) => state.context.savedNote !== null);
    expect(selectMode(missing.getSnapshot())).toBe('following');
    expect(missing.getSnapshot().context.savedNote).toBe('No kept path for this job.');
    expect(asked.map((entry) => entry.mediaId)).toEqual(['media-on-server', 'media-gone']);
  });

  it('waits for an actor of the URL that has no kept path (it may still start)', () => {
    const inspector = start({ preselectActorId: 'session', stored: kept });
    expect(selectMode(inspector.getSnapshot())).toBe('following');
    expect(inspector.getSnapshot().context.preselectActorId).toBe('session');
  });

  it('lists a local Kinora’s problem reports and replays one', async () => {
    const report = buildInspectorLog(kept['job-9']!.records);
    const reports: ProblemReportSummary[] = [{ id: 'r1', title: 'Text to Image failed', created_at: new Date(now).toISOString(), bytes: 900 }];
    const inspector = start(
      { local: true },
      {
        listReports: fromPromise(async () => reports),
        readReport: fromPromise(async () => report),
      },
    );
    await waitFor(inspector, (state) => selectReportsStatus(state) === 'ready');
    expect(inspector.getSnapshot().context.reports).toEqual(reports);
    inspector.send({ type: 'inspector.openReport', id: 'r1', title: 'Text to Image failed' });
    await waitFor(inspector, (state) => selectMode(state) === 'replayStopped');
    expect(inspector.getSnapshot().context.loadedName).toBe('Text to Image failed');
    expect(inspector.getSnapshot().context.records).toHaveLength(3);

    const hosted = start({ local: false });
    expect(selectReportsStatus(hosted.getSnapshot())).toBe('off');
  });
});
