import { describe, expect, it } from 'vitest';
import type { AnyStateNode } from 'xstate';
import { getStateNodes } from 'xstate/graph';
import { classifyStatus } from '@/lib/job-status';
import { generationJobMachine } from '@/machines/generation-job/generation-job.machine';
import type { GenerationJobEvent, GenerationJobInput } from '@/machines/generation-job/generation-job.machine';
import type { GenerationJobSnapshot } from '@/machines/generation-job/generation-job.selectors';
import { isRetryableSubmit, errorMessageOf } from '@/services/api-error';
import type { PaidRequestOutput } from '@/machines/paid-request/paid-request.machine';
import { paidChildOf } from '../../helpers/paid-child';
import { activePaths, itTakesEveryTransition, itVisitsEveryState, machineGraph, ownEventsOf } from '../../helpers/graph-coverage';
import { buildFinishedMedia, buildJobInput, buildMedia, buildStatus, httpError, networkError } from './generation-job.fixtures';

/**
 * Model-based coverage of the generation job (ARCHITECTURE §3, §5; issue 4): the shortest paths
 * from each way a job can start, over every event the machine accepts (actor answers included),
 * must reach every state node where the job can rest, and together take every transition of the
 * definition (tests/helpers/graph-coverage.ts). The nodes and edges come from the machine itself,
 * so a state or transition added later that nothing reaches fails here.
 */

const machine = generationJobMachine;
const nodeByPath = new Map<string, AnyStateNode>(getStateNodes(machine.root).map((node) => [node.path.join('.'), node]));

const NEWER = '2025-01-01T10:00:05.000Z';
const OLDER = '2025-01-01T09:59:00.000Z';

/** What each actor of the machine may answer with, by its name in `setup`. */
const submitAnswers = [
  buildMedia(),
  buildFinishedMedia(),
  buildMedia({ status: 'failed', refunded: true, error: 'Engine failure' }),
  buildMedia({ status: 'nsfw', refunded: true }),
  buildMedia({ status: 'cancelled', refunded: true }),
];

const outputsBySrc: Record<string, readonly unknown[]> = {
  pollStatus: [
    buildStatus({ status: 'processing_source', updated_at: NEWER }),
    buildStatus({ status: 'queue_source', updated_at: OLDER }),
    buildStatus({ status: 'queue_source', held: true, updated_at: NEWER }),
    buildStatus({ status: 'success_image', updated_at: NEWER }),
    buildStatus({ status: 'failed', updated_at: NEWER }),
  ],
  fetchMedia: [
    buildFinishedMedia(),
    buildMedia({ status: 'failed', refunded: true }),
    buildMedia({ status: 'nsfw', refunded: true }),
    buildMedia({ status: 'cancelled', refunded: true }),
    buildMedia({ status: 'processing_source' }),
  ],
  cancelJob: [buildMedia({ status: 'cancelled', refunded: true }), buildMedia({ status: 'processing_source' })],
  // Issue 21 item 2: a queue call answers the job held, waiting with its place, or (an edit that lost the race) started.
  queueCall: [buildMedia({ held: true, queue_position: null }), buildMedia({ queue_position: 1 }), buildMedia({ status: 'processing_source' })],
};

const errors = [networkError(), httpError(400, 'Bad request'), httpError(404, 'Not found'), httpError(409, 'Ended'), httpError(503, 'Busy')];

/**
 * What the submit's paid-request child may end with: its own refusal when its credit check refused
 * (it ends at once, having sent nothing; its states are its own graph's), else one of the server's
 * answers, or a failure it does not retry (it retries the rest for as long as it takes).
 */
const paidOutcomes = (snapshot: GenerationJobSnapshot): PaidRequestOutput[] => {
  const paid = paidChildOf(snapshot);
  if (paid?.status === 'done' && paid.output) return [paid.output];
  return [
    ...submitAnswers.map((answer) => ({ outcome: 'done' as const, answer, idempotencyKey: 'key-1' })),
    ...errors.filter((error) => !isRetryableSubmit(error)).map((error) => ({ outcome: 'failed' as const, error, message: errorMessageOf(error) })),
  ];
};

/** The answers of the actors the active states invoke, as the done and error events XState sends. */
const actorEvents = (snapshot: GenerationJobSnapshot): GenerationJobEvent[] =>
  activePaths(snapshot.value).flatMap((path) =>
    (nodeByPath.get(path)?.invoke ?? []).flatMap((invoke) => {
      const src = typeof invoke.src === 'string' ? invoke.src : '';
      if (src === 'submit') return paidOutcomes(snapshot).map((output) => ({ type: `xstate.done.actor.${invoke.id}`, output })) as unknown as GenerationJobEvent[];
      return [
        ...(outputsBySrc[src] ?? []).map((output) => ({ type: `xstate.done.actor.${invoke.id}`, output })),
        ...errors.map((error) => ({ type: `xstate.error.actor.${invoke.id}`, error })),
      ] as unknown as GenerationJobEvent[];
    }),
  );

const uiEvents: GenerationJobEvent[] = [
  { type: 'job.cancel' },
  { type: 'job.visibility', hidden: true },
  { type: 'job.visibility', hidden: false },
  { type: 'job.online' },
  { type: 'job.hold' },
  { type: 'job.resume' },
  { type: 'job.runNext' },
  { type: 'job.edit', edit: { prompt: 'a blue fox' } },
  // What the submit's child tells the job as a retry starts and ends.
  { type: 'paid.retrying' },
  { type: 'paid.sending' },
];

/** The state value plus what the guards read, so no guarded path is pruned. */
const serializeState = (snapshot: GenerationJobSnapshot): string =>
  JSON.stringify({
    value: snapshot.value,
    hidden: snapshot.context.hidden,
    cancelRequested: snapshot.context.cancelRequested,
    status: classifyStatus(snapshot.context.status),
    waiting: snapshot.context.status === 'queue_source',
    held: snapshot.context.held,
    media: snapshot.context.media !== null,
    lastUpdatedAt: snapshot.context.lastUpdatedAt,
  });

/** Every event type the active states (and the root) handle, with payloads where they need one. */
const eventsFor = (snapshot: GenerationJobSnapshot): GenerationJobEvent[] => ownEventsOf(machine, snapshot.value, [...uiEvents, ...actorEvents(snapshot)]);

/** Each way a job starts: fresh, refused, hidden, resumed (visible and hidden), re-sent after a reload. */
const STARTS: Record<string, GenerationJobInput> = {
  fresh: buildJobInput(),
  poor: buildJobInput({ credit: 0 }),
  hidden: buildJobInput({ hidden: true }),
  resumed: buildJobInput({ mediaId: 'media-1', fields: null }),
  resumedHidden: buildJobInput({ mediaId: 'media-1', fields: null, hidden: true }),
  resubmitted: buildJobInput({ resubmit: true, user: null, credit: null }),
};

const graph = machineGraph(machine, { inputs: Object.values(STARTS), events: eventsFor, serializeState });

describe('generation job paths (xstate/graph)', () => {
  itVisitsEveryState(graph, {
    title: 'reaches every state node where a job can rest',
    atLeast: 15,
    decisions: ['routing', 'starting'],
  });

  itTakesEveryTransition(graph, {
    atLeast: 45,
    includes: [
      'polling.waiting · xstate.after.pollDelay.generationJob.polling.waiting #0',
      'submitting.sending · paid.retrying #0',
      'submitting.retrying · paid.sending #0',
      'polling.checking · xstate.done.actor.0.generationJob.polling.checking #0',
      // Issue 21 item 2: the owner's queue actions while the job waits, and their answers.
      'polling · job.hold #0',
      'polling · job.resume #0',
      'polling · job.runNext #0',
      'polling · job.edit #0',
      'controlling · xstate.done.actor.0.generationJob.controlling #0',
      'controlling · xstate.error.actor.0.generationJob.controlling #0',
      'controlling · job.cancel #0',
    ],
  });

  it('every final state is reached, and a job denied never sent a request', () => {
    const finals = ['succeeded', 'failed', 'nsfw', 'cancelled', 'denied'];
    for (const final of finals) expect(graph.paths.some((path) => path.state.value === final)).toBe(true);
    const denied = graph.paths.filter((candidate) => candidate.state.value === 'denied');
    expect(denied.length).toBeGreaterThan(0);
    for (const path of denied) {
      // The only answer on the way is the child's refusal, and the child never left its check.
      const answers = path.steps.filter((step) => step.event.type.startsWith('xstate.done.actor.'));
      expect(answers.map((step) => (step.event as unknown as { output: PaidRequestOutput }).output.outcome)).toEqual(['refused']);
      for (const step of path.steps) {
        const paid = paidChildOf(step.state);
        if (paid) expect(paid.value).toBe('refused');
      }
    }
  });

  it('never applies a stale poll answer over a newer one', () => {
    const staleAnswers = graph.adjacency
      .flat()
      .filter(({ state, event }) => {
        const answer = event as { type: string; output?: { updated_at?: string } };
        return (
          (state as GenerationJobSnapshot).context.lastUpdatedAt === NEWER &&
          answer.type.startsWith('xstate.done.actor.') &&
          answer.output?.updated_at === OLDER &&
          'progress' in (answer.output ?? {}) &&
          !('kind' in (answer.output ?? {}))
        );
      });
    expect(staleAnswers.length).toBeGreaterThan(0);
    for (const { state, nextState } of staleAnswers) {
      const before = (state as GenerationJobSnapshot).context;
      const after = (nextState as GenerationJobSnapshot).context;
      expect(after.lastUpdatedAt).toBe(NEWER);
      expect(after.status).toBe(before.status);
      expect(after.progress).toBe(before.progress);
    }
  });

  it('polls nothing while the page is hidden', () => {
    for (const path of graph.paths) {
      path.steps.forEach((step, index) => {
        const before = index === 0 ? null : path.steps[index - 1]!.state;
        if (before?.context.hidden && step.state.matches({ polling: 'checking' })) {
          // Only showing the page (hidden: false), or a 409 on cancel (which asks for the job's
          // real end), starts a poll.
          const event = step.event as { type: string; hidden?: boolean };
          const shown = event.type === 'job.visibility' && event.hidden === false;
          expect(shown || event.type.startsWith('xstate.error.actor')).toBe(true);
        }
      });
    }
  });
});
