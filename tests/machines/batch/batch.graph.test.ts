import { describe, expect, it } from 'vitest';
import type { AnyStateNode } from 'xstate';
import { getStateNodes } from 'xstate/graph';
import { classifyStatus } from '@/lib/job-status';
import { liveJobIds } from '@/machines/batch/batch-board';
import { batchMachine, joinUrlsOf } from '@/machines/batch/batch.machine';
import type { BatchEvent, BatchInput } from '@/machines/batch/batch.machine';
import type { BatchSnapshot } from '@/machines/batch/batch.selectors';
import type { BatchJobUpdate } from '@/services/batch';
import { activePaths, itTakesEveryTransition, itVisitsEveryState, machineGraph, ownEventsOf } from '../../helpers/graph-coverage';
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
  generateVideos: [RUNNING],
  pollJobs: [
    [running('v1'), running('v2'), running('c1')],
    [ended('v1'), ended('v2'), ended('c1')],
  ],
  saveEdit: [MADE],
  join: [JOINING, JOINED],
  deleteAlbum: [{ id: 'album-1', deleted: true }],
};

const errors = [networkError(), httpError(404, 'Failed to find a Batch with this id'), httpError(500, 'Boom')];

const actorEvents = (snapshot: BatchSnapshot): BatchEvent[] =>
  activePaths(snapshot.value).flatMap((path) =>
    (nodeByPath.get(path)?.invoke ?? []).flatMap((invoke) => {
      const src = typeof invoke.src === 'string' ? invoke.src : '';
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
    retry: context.retryAttempt,
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
    atLeast: 15,
    decisions: ['generating.checkingCredit', 'polling.deciding'],
  });

  // Every edge is replayed once per state it leaves: seconds, not milliseconds.
  itTakesEveryTransition(graph, { atLeast: 40, timeout: 60_000 });

  it('never sends "Generate videos" without the credit check passing', () => {
    let sends = 0;
    for (const path of graph.paths) {
      path.steps.forEach((step, index) => {
        if (!step.state.matches({ generating: 'submitting' })) return;
        const before = index === 0 ? null : path.steps[index - 1]!.state;
        // Entered from ready (through the credit check) or from a retry of the same key.
        if (before?.matches('ready')) {
          sends += 1;
          expect((before.context.credit ?? 0) >= 80).toBe(true);
        }
      });
    }
    expect(sends).toBeGreaterThan(0);
    // The poor start is refused: it reaches ready with the reason, never submitting, until its balance changes.
    const generates = graph.adjacency[1]!.filter(
      ({ state, event }) => event.type === 'batch.generate' && (state as BatchSnapshot).context.credit === 0,
    );
    expect(generates.length).toBeGreaterThan(0);
    for (const { nextState } of generates) {
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
