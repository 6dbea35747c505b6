import { describe, expect, it } from 'vitest';
import type { AnyStateNode } from 'xstate';
import { getStateNodes } from 'xstate/graph';
import { classifyStatus } from '@/lib/job-status';
import { liveJobIds } from '@/machines/batch/batch-board';
import { batchMachine, joinUrlsOf } from '@/machines/batch/batch.machine';
import type { BatchEvent, BatchInput } from '@/machines/batch/batch.machine';
import type { BatchSnapshot } from '@/machines/batch/batch.selectors';
import type { PaidRequestOutput } from '@/machines/paid-request/paid-request.machine';
import { errorMessageOf } from '@/services/api-error';
import type { BatchJobUpdate } from '@/services/batch';
import { activePaths, itTakesEveryTransition, itVisitsEveryState, machineGraph, ownEventsOf } from '../../helpers/graph-coverage';
import { paidChildOf } from '../../helpers/paid-child';
import { buildStatus } from '../../services/media.fixtures';
import { buildBatch, buildClipVideo, buildFinishedVideo, TWO_CLIPS } from './batch.fixtures';
import { CREATOR, httpError, networkError } from '../generation-job/generation-job.fixtures';

/**
 * Model-based coverage of the album (ARCHITECTURE §3, §5; issue 5): the shortest paths from each
 * way an album page starts, over every event the machine accepts (its calls' answers included),
 * reach every state node where the album can rest and take every transition of the definition
 * (tests/helpers/graph-coverage.ts). The nodes and edges come from the machine itself: one added
 * later that nothing reaches fails here.
 */

const machine = batchMachine;
const nodeByPath = new Map<string, AnyStateNode>(getStateNodes(machine.root).map((node) => [node.path.join('.'), node]));

const BOARD = buildBatch({ script_board: { clips: TWO_CLIPS } });
const RUNNING = buildBatch({ script_board: { clips: TWO_CLIPS }, videos: [buildClipVideo('v1'), buildClipVideo('v2')] });
const MADE = buildBatch({ script_board: { clips: TWO_CLIPS }, videos: [buildFinishedVideo('v1'), buildFinishedVideo('v2')] });
const JOINING = buildBatch({ ...MADE, concat: buildClipVideo('c1') });
const JOINED = buildBatch({ ...MADE, concat: buildFinishedVideo('c1') });

const running = (id: string): BatchJobUpdate => ({ id, kind: 'status', status: buildStatus({ id, updated_at: '2025-01-01T10:00:30.000Z' }) });
const ended = (id: string): BatchJobUpdate => ({ id, kind: 'ended', media: buildFinishedVideo(id) });

/** What each call may answer with, by its actor's name in `setup`. */
const outputsBySrc: Record<string, readonly unknown[]> = {
  loadBatch: [BOARD, RUNNING, MADE],
  writeBoard: [BOARD],
  saveBoard: [BOARD],
  pollJobs: [
    [running('v1'), running('v2'), running('c1')],
    [ended('v1'), ended('v2'), ended('c1')],
  ],
  saveEdit: [MADE],
  join: [JOINING, JOINED],
  deleteAlbum: [{ id: 'album-1', deleted: true }],
};

const errors = [networkError(), httpError(404, 'Failed to find a Batch with this id'), httpError(500, 'Boom')];

/**
 * What the paid child may end with: its own refusal when its credit check refused (it ends at once,
 * having sent nothing; its states are its own graph's), else the answer or a failure after its retries.
 */
const paidOutcomes = (snapshot: BatchSnapshot): PaidRequestOutput[] => {
  const paid = paidChildOf(snapshot);
  if (paid?.status === 'done' && paid.output) return [paid.output];
  return [
    { outcome: 'done', answer: RUNNING, idempotencyKey: 'key-1' },
    ...errors.map((error) => ({ outcome: 'failed' as const, error, message: errorMessageOf(error) })),
  ];
};

const actorEvents = (snapshot: BatchSnapshot): BatchEvent[] =>
  activePaths(snapshot.value).flatMap((path) =>
    (nodeByPath.get(path)?.invoke ?? []).flatMap((invoke) => {
      const src = typeof invoke.src === 'string' ? invoke.src : '';
      if (src === 'generateVideos') return paidOutcomes(snapshot).map((output) => ({ type: `xstate.done.actor.${invoke.id}`, output })) as unknown as BatchEvent[];
      return [
        ...(outputsBySrc[src] ?? []).map((output) => ({ type: `xstate.done.actor.${invoke.id}`, output })),
        ...errors.map((error) => ({ type: `xstate.error.actor.${invoke.id}`, error })),
      ] as unknown as BatchEvent[];
    }),
  );

const uiEvents: BatchEvent[] = [
  { type: 'batch.visibility', hidden: true },
  { type: 'batch.visibility', hidden: false },
  { type: 'batch.account', user: CREATOR, credit: 500, creditLoading: false },
  { type: 'board.change', clipId: 'clip-1', changes: { prompt: 'the sea' } },
  { type: 'board.move', clipId: 'clip-2', offset: -1 },
  { type: 'edit.setAudio', url: 'http://localhost/api/files/a.wav' },
  { type: 'edit.addVideo', video: { url: 'http://localhost/api/files/x.mp4', label: 'x' } },
  { type: 'edit.removeVideo', index: 0 },
  // The album's hold child (one quote for the whole album): a quote, and a hold placed or released.
  { type: 'hold.quoted', held: 0, balanceChanged: false },
  { type: 'hold.quoted', held: 80, balanceChanged: true },
];

/**
 * The state value plus what the guards read, kept coarse so the graph stays small: the drafts
 * (board, edit section) and the balance only matter where the person acts on them (ready), and
 * whether the page is hidden only while polling.
 */
const serializeState = (snapshot: BatchSnapshot): string => {
  const { context } = snapshot;
  const resting = snapshot.matches('ready');
  return JSON.stringify({
    value: snapshot.value,
    live: liveJobIds(context.batch),
    concat: context.batch?.concat ? classifyStatus(context.batch.concat.status) : null,
    hidden: snapshot.matches('polling') || snapshot.matches('loading') ? context.hidden : null,
    ...(resting
      ? {
          rich: (context.credit ?? 0) >= 80,
          board: context.board.length,
          boardDirty: context.boardVersion !== context.savedBoardVersion,
          editDirty: context.editVersion !== context.savedEditVersion,
          extra: context.additionalVideos.length > 0,
          joinable: joinUrlsOf(context).length > 0,
        }
      : {}),
  });
};

const eventsFor = (snapshot: BatchSnapshot): BatchEvent[] => ownEventsOf(machine, snapshot.value, [...uiEvents, ...actorEvents(snapshot)]);

/** Each way an album page starts: with credits, without, hidden. */
const STARTS: Record<string, BatchInput> = {
  rich: { batchId: 'album-1', user: CREATOR, credit: 500 },
  poor: { batchId: 'album-1', user: CREATOR, credit: 0 },
  hidden: { batchId: 'album-1', user: CREATOR, credit: 500, hidden: true },
};

const graph = machineGraph(machine, { inputs: Object.values(STARTS), events: eventsFor, serializeState });

describe('album paths (xstate/graph)', () => {
  itVisitsEveryState(graph, {
    title: 'reaches every state node where an album can rest',
    // generating's checkingCredit, submitting and retrying are the paid-request child's now (its own tests).
    atLeast: 14,
    decisions: ['polling.deciding'],
  });

  // Every edge is replayed once per state it leaves: seconds, not milliseconds.
  itTakesEveryTransition(graph, { atLeast: 40, timeout: 60_000 });

  it('never sends "Generate videos" without the credit check passing', () => {
    let sends = 0;
    let refusals = 0;
    for (const { state, event, nextState } of graph.adjacency.flat()) {
      const after = nextState as BatchSnapshot;
      if (event.type !== 'batch.generate' || !after.matches('generating')) continue;
      // The paid child was handed the balance the page showed and the board's cost.
      const paid = paidChildOf(after);
      expect(paid?.context).toMatchObject({ cost: 80, credit: (state as BatchSnapshot).context.credit });
      if ((state as BatchSnapshot).context.credit === 0) {
        refusals += 1;
        expect(paid?.value).toBe('refused');
      } else {
        sends += 1;
        expect(paid?.value).toBe('submitting');
      }
    }
    expect(sends).toBeGreaterThan(0);
    expect(refusals).toBeGreaterThan(0);
    // The poor start is refused: it comes back to ready with the reason, having sent nothing.
    const refused = graph.adjacency
      .flat()
      .filter(({ event }) => {
        const done = event as unknown as { type: string; output?: PaidRequestOutput };
        return done.type === 'xstate.done.actor.paidRequest' && done.output?.outcome === 'refused';
      });
    expect(refused.length).toBeGreaterThan(0);
    for (const { nextState } of refused) {
      expect((nextState as BatchSnapshot).value).toBe('ready');
      expect((nextState as BatchSnapshot).context.error).toBe('Not enough credits: this costs 80 credits and you have 0.');
    }
  });

  it('reaches "deleted" only through a delete the server confirmed', () => {
    const deleted = graph.paths.filter((path) => path.state.matches('deleted'));
    expect(deleted.length).toBeGreaterThan(0);
    for (const path of deleted) {
      const last = path.steps.at(-1)!;
      expect(last.event.type).toMatch(/^xstate\.done\.actor\..*deleting/);
    }
  });
});
