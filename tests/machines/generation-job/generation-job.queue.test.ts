import { describe, expect, it, vi } from 'vitest';
import { QUEUE_TEXTS } from '@/config/queue-texts';
import { selectJobView, selectQueueActions } from '@/machines/generation-job/generation-job.selectors';
import { buildMedia, buildStatus, flush, httpError, setUpJobServer, startJob } from './generation-job.fixtures';

/**
 * Issue 21 item 2 in the jobs panel: a waiting job shows its place or Held, and its owner's Hold,
 * Resume, Run next and Edit go through the job's own machine (polling → controlling → polling),
 * each offered exactly while it applies.
 */

const server = setUpJobServer();

const NEWER = '2025-01-01T10:00:05.000Z';

/** A submitted job whose first poll says it waits, 3rd in its owner's queue. */
async function waitingJob() {
  server.poll.mockResolvedValue(buildStatus({ status: 'queue_source', progress: 0, queue_position: 3, updated_at: NEWER }));
  const started = startJob(server);
  await flush();
  await vi.advanceTimersByTimeAsync(1000);
  return started;
}

describe('a waiting job', () => {
  it('shows its place and offers Hold, Run next and Edit (not Resume)', async () => {
    const { actor } = await waitingJob();
    expect(selectJobView(actor.getSnapshot())).toMatchObject({ phase: 'queued', queuePosition: 3, queueError: null });
    expect(selectQueueActions(actor.getSnapshot())).toEqual({ hold: true, resume: false, runNext: true, edit: true });
  });

  it('holds: the call, then Held with Resume only, polled again at once', async () => {
    const { actor } = await waitingJob();
    server.queue.mockResolvedValueOnce(buildMedia({ held: true, queue_position: null, updated_at: NEWER }));
    actor.send({ type: 'job.hold' });
    expect(actor.getSnapshot().matches('controlling')).toBe(true);
    await flush();
    expect(server.queue).toHaveBeenCalledWith('media-1', { kind: 'hold' });
    expect(actor.getSnapshot().matches('polling')).toBe(true);
    expect(actor.getSnapshot().context.pollAttempt).toBe(0);
    expect(selectJobView(actor.getSnapshot())).toMatchObject({ phase: 'held', queuePosition: null });
    expect(selectQueueActions(actor.getSnapshot())).toEqual({ hold: false, resume: true, runNext: false, edit: true });

    server.queue.mockResolvedValueOnce(buildMedia({ held: false, queue_position: 1, updated_at: NEWER }));
    actor.send({ type: 'job.resume' });
    await flush();
    expect(server.queue).toHaveBeenLastCalledWith('media-1', { kind: 'resume' });
    expect(selectJobView(actor.getSnapshot())).toMatchObject({ phase: 'queued', queuePosition: 1 });
  });

  it('runs next, and a poll keeps the place and Held it reports', async () => {
    const { actor } = await waitingJob();
    server.queue.mockResolvedValueOnce(buildMedia({ queue_position: 1, updated_at: NEWER }));
    actor.send({ type: 'job.runNext' });
    await flush();
    expect(server.queue).toHaveBeenCalledWith('media-1', { kind: 'runNext' });
    expect(selectJobView(actor.getSnapshot()).queuePosition).toBe(1);
    server.poll.mockResolvedValue(buildStatus({ status: 'queue_source', progress: 0, held: true, queue_position: null, updated_at: '2025-01-01T10:00:07.000Z' }));
    await vi.advanceTimersByTimeAsync(1000);
    expect(selectJobView(actor.getSnapshot())).toMatchObject({ phase: 'held', queuePosition: null });
  });

  it('edits with a key of its own; the new model and price show in the panel', async () => {
    const { actor } = await waitingJob();
    server.queue.mockResolvedValueOnce(buildMedia({ option: 'Flux1.1ProUltra', cost: 8, queue_position: 3, updated_at: NEWER }));
    actor.send({ type: 'job.edit', edit: { option: 'Flux1.1ProUltra', prompt: 'a blue fox' } });
    await flush();
    const [, request] = server.queue.mock.calls[0] ?? [];
    expect(request).toEqual({ kind: 'edit', edit: { option: 'Flux1.1ProUltra', prompt: 'a blue fox' }, idempotencyKey: expect.any(String) });
    expect(selectJobView(actor.getSnapshot())).toMatchObject({ cost: 8, option: 'Flux1.1ProUltra', optionLabel: 'Flux 1.1 Pro Ultra', phase: 'queued' });
  });

  it('says why a change failed (a 409: it started meanwhile) and polls on', async () => {
    const { actor } = await waitingJob();
    server.queue.mockRejectedValueOnce(httpError(409, QUEUE_TEXTS.details.alreadyStarted));
    actor.send({ type: 'job.hold' });
    await flush();
    expect(actor.getSnapshot().matches('polling')).toBe(true);
    expect(selectJobView(actor.getSnapshot()).queueError).toBe(`${QUEUE_TEXTS.failed.hold} ${QUEUE_TEXTS.details.alreadyStarted}`);
    server.poll.mockResolvedValue(buildStatus({ status: 'processing_source', progress: 20, updated_at: '2025-01-01T10:00:07.000Z' }));
    await vi.advanceTimersByTimeAsync(1000);
    expect(selectJobView(actor.getSnapshot())).toMatchObject({ phase: 'processing', queuePosition: null });
    expect(selectQueueActions(actor.getSnapshot())).toEqual({ hold: false, resume: false, runNext: false, edit: false });
  });

  it('carries out a cancel asked for during a change once the change has answered', async () => {
    const { actor } = await waitingJob();
    actor.send({ type: 'job.hold' });
    actor.send({ type: 'job.cancel' });
    expect(selectJobView(actor.getSnapshot()).phase).toBe('cancelling');
    await flush();
    expect(server.cancel).toHaveBeenCalledWith('media-1');
    await flush();
    expect(actor.getSnapshot().value).toBe('cancelled');
  });
});

describe('a job that is not waiting', () => {
  it('takes none of the queue events while it runs', async () => {
    server.poll.mockResolvedValue(buildStatus({ status: 'processing_source', updated_at: NEWER }));
    const { actor } = startJob(server);
    await flush();
    await vi.advanceTimersByTimeAsync(1000);
    expect(selectQueueActions(actor.getSnapshot())).toEqual({ hold: false, resume: false, runNext: false, edit: false });
    actor.send({ type: 'job.hold' });
    expect(server.queue).not.toHaveBeenCalled();
  });

  it('cannot be edited before its request is known (a resumed job not yet fetched)', async () => {
    server.poll.mockResolvedValue(buildStatus({ status: 'queue_source', progress: 0, queue_position: 1, updated_at: NEWER }));
    const { actor } = startJob(server, { mediaId: 'media-1', fields: null });
    await flush();
    expect(selectQueueActions(actor.getSnapshot())).toEqual({ hold: true, resume: false, runNext: true, edit: false });
  });
});
