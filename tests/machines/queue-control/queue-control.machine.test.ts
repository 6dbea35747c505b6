import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { QUEUE_TEXTS } from '@/config/queue-texts';
import { ApiError } from '@/services/api-error';
import type { Media } from '@/services/schemas/media';
import type { QueueRequest } from '@/machines/queue-control/queue-call';
import { queueControlMachine } from '@/machines/queue-control/queue-control.machine';
import { selectQueueActions, selectQueueBusy, selectQueueError, selectQueueMedia } from '@/machines/queue-control/queue-control.selectors';
import { buildMedia } from '../../services/media.fixtures';

/**
 * Issue 21 item 2 on the History page: one waiting job's Hold, Resume, Run next and Edit, each
 * taken only where it applies, the job as each call answers it, and a 409 (it started meanwhile)
 * read again so the row shows what the job is now.
 */

const httpError = (status: number, message: string): ApiError => new ApiError(message, { kind: 'http', status });

function startControl(media: Media, answer: (request: QueueRequest) => Promise<Media>, fetch: () => Promise<Media> = async () => media) {
  const calls: QueueRequest[] = [];
  const machine = queueControlMachine.provide({
    actors: {
      queueCall: fromPromise<Media, { mediaId: string; request: QueueRequest }>(({ input }) => {
        calls.push(input.request);
        return answer(input.request);
      }),
      fetchMedia: fromPromise<Media, { mediaId: string }>(() => fetch()),
    },
  });
  const actor = createActor(machine, { input: { media } }).start();
  return { actor, calls };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));
const waiting = buildMedia({ id: 'job-9', status: 'queue_source', queue_position: 2 });

describe('queue control', () => {
  it('offers Hold, Run next and Edit for a waiting job, Resume for a held one, nothing once it started', () => {
    expect(selectQueueActions(startControl(waiting, async () => waiting).actor.getSnapshot())).toEqual({ hold: true, resume: false, runNext: true, edit: true });
    const held = buildMedia({ status: 'queue_source', held: true });
    expect(selectQueueActions(startControl(held, async () => held).actor.getSnapshot())).toEqual({ hold: false, resume: true, runNext: false, edit: true });
    // A video creation's job waits like any other, but only a generation call's is edited.
    const creation = buildMedia({ status: 'queue_source', tool: 'parallax-motion', kind: 'video' });
    expect(selectQueueActions(startControl(creation, async () => creation).actor.getSnapshot())).toEqual({ hold: true, resume: false, runNext: true, edit: false });
    const running = buildMedia({ status: 'processing_source' });
    expect(selectQueueActions(startControl(running, async () => running).actor.getSnapshot())).toEqual({ hold: false, resume: false, runNext: false, edit: false });
  });

  it('holds, resumes and runs next, keeping the job as each call answers it', async () => {
    const answers: Record<QueueRequest['kind'], Media> = {
      hold: buildMedia({ id: 'job-9', held: true, queue_position: null }),
      resume: buildMedia({ id: 'job-9', held: false, queue_position: 2 }),
      runNext: buildMedia({ id: 'job-9', queue_position: 1 }),
      edit: waiting,
    };
    const { actor, calls } = startControl(waiting, async (request) => answers[request.kind]);
    actor.send({ type: 'queue.hold' });
    expect(selectQueueBusy(actor.getSnapshot())).toBe(true);
    await flush();
    expect(selectQueueMedia(actor.getSnapshot())).toMatchObject({ held: true, queue_position: null });
    actor.send({ type: 'queue.runNext' }); // not for a held job
    actor.send({ type: 'queue.resume' });
    await flush();
    actor.send({ type: 'queue.runNext' });
    await flush();
    expect(calls).toEqual([{ kind: 'hold' }, { kind: 'resume' }, { kind: 'runNext' }]);
    expect(selectQueueMedia(actor.getSnapshot()).queue_position).toBe(1);
    expect(actor.getSnapshot().value).toBe('idle');
  });

  it('edits under a fresh Idempotency-Key, and shows the re-quoted job', async () => {
    const { actor, calls } = startControl(waiting, async () => buildMedia({ id: 'job-9', option: 'Flux1.1ProUltra', cost: 8, args: { prompt: 'a blue fox' } }));
    actor.send({ type: 'queue.edit', edit: { option: 'Flux1.1ProUltra', prompt: 'a blue fox' } });
    await flush();
    expect(calls).toEqual([{ kind: 'edit', edit: { option: 'Flux1.1ProUltra', prompt: 'a blue fox' }, idempotencyKey: expect.any(String) }]);
    expect(selectQueueMedia(actor.getSnapshot())).toMatchObject({ option: 'Flux1.1ProUltra', cost: 8 });
  });

  it('after a 409 reads the job again and says why: it started meanwhile', async () => {
    const fetch = vi.fn(async () => buildMedia({ id: 'job-9', status: 'processing_source' }));
    const { actor } = startControl(waiting, () => Promise.reject(httpError(409, QUEUE_TEXTS.details.alreadyStarted)), fetch);
    actor.send({ type: 'queue.runNext' });
    await flush();
    await flush();
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(actor.getSnapshot().value).toBe('idle');
    expect(selectQueueError(actor.getSnapshot())).toBe(`${QUEUE_TEXTS.failed.runNext} ${QUEUE_TEXTS.details.alreadyStarted}`);
    expect(selectQueueActions(actor.getSnapshot())).toEqual({ hold: false, resume: false, runNext: false, edit: false });
  });

  it('keeps the job as it was on another failure (402 for an edit), with the server’s message; it can be dismissed', async () => {
    const { actor } = startControl(waiting, () => Promise.reject(httpError(402, 'Not enough credits: this costs 4 credits and you have 2.')));
    actor.send({ type: 'queue.edit', edit: { option: 'Flux1.1ProUltra' } });
    await flush();
    expect(selectQueueError(actor.getSnapshot())).toBe(`${QUEUE_TEXTS.failed.edit} Not enough credits: this costs 4 credits and you have 2.`);
    expect(selectQueueMedia(actor.getSnapshot())).toBe(waiting);
    actor.send({ type: 'queue.dismissError' });
    expect(selectQueueError(actor.getSnapshot())).toBeNull();
  });

  it('takes the job as the History page’s live read found it while idle, not while a call is on its way', async () => {
    let answer: (media: Media) => void = () => undefined;
    const { actor } = startControl(waiting, () => new Promise<Media>((resolve) => (answer = resolve)));
    actor.send({ type: 'queue.sync', media: buildMedia({ id: 'job-9', status: 'queue_source', queue_position: 1 }) });
    expect(selectQueueMedia(actor.getSnapshot())).toMatchObject({ queue_position: 1 });

    actor.send({ type: 'queue.hold' });
    // A read sent before the hold arrived would undo it: the call's answer is the newer one.
    actor.send({ type: 'queue.sync', media: buildMedia({ id: 'job-9', status: 'queue_source', queue_position: 1, held: false }) });
    answer(buildMedia({ id: 'job-9', status: 'queue_source', held: true, queue_position: null }));
    await flush();
    expect(selectQueueMedia(actor.getSnapshot())).toMatchObject({ held: true, queue_position: null });
    expect(selectQueueActions(actor.getSnapshot())).toMatchObject({ resume: true, hold: false });
  });
});
