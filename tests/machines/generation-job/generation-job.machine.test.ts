import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, setup } from 'xstate';
import { JOB_REQUEST_TIMEOUT_MS, JOB_SUBMIT_TIMEOUT_MS } from '@/config/limits';
import type { ActorRefFrom } from 'xstate';
import { MESSAGES } from '@/config/messages';
import type { GenerationJobParentEvent, Media, ProcessingStatus } from '@/machines/generation-job/generation-job.machine';
import { selectCanCancel, selectJobView } from '@/machines/generation-job/generation-job.selectors';
import { JOB_TEXTS } from '@/config/job-texts';
import {
  CREATOR,
  DEVELOPER,
  NO_GROUPS,
  buildFinishedMedia,
  buildJobInput,
  setUpJobServer,
  buildMedia,
  buildStatus,
  deferred,
  flush,
  httpError,
  jobMachineFor,
  networkError,
  startJob,
  submitChildFor,
} from './generation-job.fixtures';

const server = setUpJobServer();

const phase = (actor: ReturnType<typeof startJob>['actor']) => selectJobView(actor.getSnapshot()).phase;

describe('credit check (SPEC §6)', () => {
  it.each([
    ['a balance below the cost', { user: CREATOR, credit: 3 }, JOB_TEXTS.notEnoughCredits(4, 3)],
    ['an unknown balance (counts as 0)', { user: CREATOR, credit: null }, JOB_TEXTS.notEnoughCredits(4, 0)],
    ['no user', { user: null, credit: 100 }, MESSAGES.notAuthenticated],
    ['a user without attributes', { user: {}, credit: 100 }, MESSAGES.notAuthenticated],
  ])('denies %s without sending anything', async (_, input, error) => {
    const { actor, reports } = startJob(server, input);
    await flush();
    expect(actor.getSnapshot().value).toBe('denied');
    expect(actor.getSnapshot().status).toBe('done');
    expect(server.submit).not.toHaveBeenCalled();
    expect(selectJobView(actor.getSnapshot())).toMatchObject({ phase: 'denied', live: false, error, finishedAt: Date.now() });
    expect(reports).toEqual([
      { type: 'job.settled', localId: 'job-1', outcome: 'denied', media: null, error, refunded: false },
    ]);
  });

  it.each([
    ['a balance equal to the cost', { user: CREATOR, credit: 4 }],
    ['the Developer group', { user: DEVELOPER, credit: 0 }],
    ['a user with no groups at all', { user: NO_GROUPS, credit: 0 }],
  ])('lets %s submit', async (_, input) => {
    const { actor } = startJob(server, input);
    await flush();
    expect(server.submit).toHaveBeenCalledTimes(1);
    expect(actor.getSnapshot().matches('polling')).toBe(true);
  });
});

describe('submitting', () => {
  it('sends the fields with the idempotency key, then waits to poll', async () => {
    const { actor, reports } = startJob(server, { assetId: 'asset-1' });
    expect(phase(actor)).toBe('submitting');
    await flush();
    expect(server.submit).toHaveBeenCalledWith({
      endpoint: 'image/text-2-image',
      fields: buildJobInput().fields,
      idempotencyKey: 'key-1',
      assetId: 'asset-1',
    });
    expect(actor.getSnapshot().matches({ polling: 'waiting' })).toBe(true);
    expect(selectJobView(actor.getSnapshot())).toMatchObject({ phase: 'queued', mediaId: 'media-1', status: 'queue_source' });
    expect(actor.getSnapshot().context.fields).toBeNull();
    expect(reports).toEqual([{ type: 'job.submitted', localId: 'job-1', mediaId: 'media-1' }]);
  });

  it('retries a network failure with the same key, visibly reconnecting', async () => {
    server.submit.mockRejectedValueOnce(networkError()).mockRejectedValueOnce(networkError());
    const { actor } = startJob(server);
    await flush();
    expect(actor.getSnapshot().value).toEqual({ submitting: 'retrying' });
    expect(actor.getSnapshot().hasTag('reconnecting')).toBe(true);
    expect(phase(actor)).toBe('reconnecting');

    await vi.advanceTimersByTimeAsync(499);
    expect(server.submit).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(server.submit).toHaveBeenCalledTimes(2);
    expect(actor.getSnapshot().value).toEqual({ submitting: 'retrying' });

    // Back online: sent again at once.
    actor.send({ type: 'job.online' });
    await flush();
    expect(server.submit).toHaveBeenCalledTimes(3);
    expect(server.submit.mock.calls.map(([input]) => input.idempotencyKey)).toEqual(['key-1', 'key-1', 'key-1']);
    expect(actor.getSnapshot().matches('polling')).toBe(true);
  });

  it('fails with the server detail on an HTTP error, charged nothing', async () => {
    server.submit.mockRejectedValue(httpError(402, 'Not enough credits: this costs 4 credits and you have 1.'));
    const { actor, reports } = startJob(server);
    await flush();
    expect(actor.getSnapshot().value).toBe('failed');
    expect(reports.at(-1)).toEqual({
      type: 'job.settled',
      localId: 'job-1',
      outcome: 'failed',
      media: null,
      error: 'Not enough credits: this costs 4 credits and you have 1.',
      refunded: false,
    });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(server.submit).toHaveBeenCalledTimes(1);
  });

  it.each([
    [409, 'A request with this Idempotency-Key is still being processed.'],
    [502, 'Bad gateway'],
    [503, 'Service unavailable'],
    [504, 'Gateway time-out'],
  ])('retries a submit answered %i with the same key after the back-off, not failing', async (status, detail) => {
    server.submit.mockRejectedValueOnce(httpError(status, detail));
    const { actor, reports } = startJob(server);
    await flush();
    expect(actor.getSnapshot().value).toEqual({ submitting: 'retrying' });
    expect(phase(actor)).toBe('reconnecting');
    expect(reports).toEqual([]);
    await vi.advanceTimersByTimeAsync(499);
    expect(server.submit).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(server.submit.mock.calls.map(([input]) => input.idempotencyKey)).toEqual(['key-1', 'key-1']);
    expect(actor.getSnapshot().matches('polling')).toBe(true);
  });

  it.each([400, 422, 500])('fails on a submit answered %i (a refusal, not worth the same request again)', async (status) => {
    server.submit.mockRejectedValueOnce(httpError(status, 'No.'));
    const { actor } = startJob(server);
    await flush();
    expect(actor.getSnapshot().value).toBe('failed');
    expect(actor.getSnapshot().context.error).toBe('No.');
  });

  it('gives up a submit that hangs after JOB_SUBMIT_TIMEOUT_MS, aborting it, and sends it again with the same key', async () => {
    const signals: AbortSignal[] = [];
    const hang = jobMachineFor(server).provide({
      actors: {
        submit: submitChildFor((input, signal) => {
          signals.push(signal);
          return signals.length === 1 ? new Promise<Media>(() => {}) : server.submit(input);
        }),
      },
    });
    const actor = createActor(hang, { input: buildJobInput() }).start();
    await vi.advanceTimersByTimeAsync(JOB_SUBMIT_TIMEOUT_MS - 1);
    expect(actor.getSnapshot().value).toEqual({ submitting: 'sending' });
    await vi.advanceTimersByTimeAsync(1);
    expect(actor.getSnapshot().value).toEqual({ submitting: 'retrying' });
    expect(signals[0]?.aborted).toBe(true);
    await vi.advanceTimersByTimeAsync(500);
    expect(signals).toHaveLength(2);
    expect(server.submit).toHaveBeenCalledWith(expect.objectContaining({ idempotencyKey: 'key-1' }));
    expect(actor.getSnapshot().matches('polling')).toBe(true);
  });

  it('holds a submit retry while the page is hidden and sends it when shown', async () => {
    server.submit.mockRejectedValueOnce(networkError());
    const { actor } = startJob(server);
    await flush();
    actor.send({ type: 'job.visibility', hidden: true });
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(server.submit).toHaveBeenCalledTimes(1);
    expect(actor.getSnapshot().value).toEqual({ submitting: 'retrying' });
    actor.send({ type: 'job.visibility', hidden: false });
    await flush();
    expect(server.submit).toHaveBeenCalledTimes(2);
  });

  it('ends at once when the submit answer is already final (a synchronous call)', async () => {
    server.submit.mockResolvedValue(buildFinishedMedia());
    const { actor, reports } = startJob(server);
    await flush();
    expect(actor.getSnapshot().value).toBe('succeeded');
    expect(server.poll).not.toHaveBeenCalled();
    expect(reports.map((report) => report.type)).toEqual(['job.submitted', 'job.settled']);
  });
});

describe('polling (SPEC §4 statuses)', () => {
  it('polls until success, then fetches the full media', async () => {
    server.poll
      .mockResolvedValueOnce(buildStatus({ status: 'queue_source', progress: 0, updated_at: '2025-01-01T10:00:01.000Z' }))
      .mockResolvedValueOnce(buildStatus({ status: 'processing_source', progress: 50, updated_at: '2025-01-01T10:00:02.000Z' }))
      .mockResolvedValueOnce(buildStatus({ status: 'success_image', progress: 100, updated_at: '2025-01-01T10:00:03.000Z' }));
    const { actor, reports } = startJob(server);
    await flush();

    await vi.advanceTimersByTimeAsync(1000);
    expect(server.poll).toHaveBeenCalledWith('media-1');
    expect(selectJobView(actor.getSnapshot())).toMatchObject({ phase: 'queued', progress: 0 });
    await vi.advanceTimersByTimeAsync(1000);
    expect(selectJobView(actor.getSnapshot())).toMatchObject({ phase: 'processing', progress: 50 });
    expect(actor.getSnapshot().context.pollAttempt).toBe(2);
    await vi.advanceTimersByTimeAsync(1000);

    expect(server.fetch).toHaveBeenCalledWith('media-1');
    const view = selectJobView(actor.getSnapshot());
    expect(view).toMatchObject({ phase: 'succeeded', live: false, progress: 100, error: null });
    expect(view.media?.items[0]?.url).toContain('/api/files/f1');
    expect(reports.at(-1)).toMatchObject({ type: 'job.settled', outcome: 'succeeded', error: null, refunded: false });
    expect(selectCanCancel(actor.getSnapshot())).toBe(false);

    await vi.advanceTimersByTimeAsync(120_000);
    expect(server.poll).toHaveBeenCalledTimes(3);
  });

  it.each([
    ['failed', 'The render engine gave up.', 'The render engine gave up.'],
    ['failed', null, JOB_TEXTS.failed],
    ['nsfw', null, JOB_TEXTS.nsfw],
    ['cancelled', null, null],
  ] as const)('ends as %s (error %s) with the refund the media reports', async (status, serverError, error) => {
    server.poll.mockResolvedValue(buildStatus({ status, updated_at: '2025-01-01T10:00:03.000Z' }));
    server.fetch.mockResolvedValue(buildMedia({ status, refunded: true, error: serverError, updated_at: '2025-01-01T10:00:03.000Z' }));
    const { actor, reports } = startJob(server);
    await flush();
    await vi.advanceTimersByTimeAsync(1000);
    expect(actor.getSnapshot().value).toBe(status);
    expect(reports.at(-1)).toMatchObject({ type: 'job.settled', outcome: status, refunded: true, error });
  });

  it('reads an unknown status as still processing', async () => {
    server.poll.mockResolvedValue(buildStatus({ status: 'queue_bullet_v9' }));
    const { actor } = startJob(server);
    await flush();
    await vi.advanceTimersByTimeAsync(1000);
    expect(actor.getSnapshot().matches({ polling: 'waiting' })).toBe(true);
    expect(server.fetch).not.toHaveBeenCalled();
  });

  it('goes on polling when the media fetched is, after all, still running', async () => {
    server.poll.mockResolvedValueOnce(buildStatus({ status: 'success_image' }));
    server.fetch.mockResolvedValueOnce(buildMedia({ status: 'processing_source' }));
    const { actor } = startJob(server);
    await flush();
    await vi.advanceTimersByTimeAsync(1000);
    expect(actor.getSnapshot().matches({ polling: 'waiting' })).toBe(true);
  });

  it('fails with "no longer exists" when the status answers 404', async () => {
    server.poll.mockRejectedValue(httpError(404, 'Not found'));
    const { actor } = startJob(server);
    await flush();
    await vi.advanceTimersByTimeAsync(1000);
    expect(actor.getSnapshot().value).toBe('failed');
    expect(actor.getSnapshot().context.error).toBe(JOB_TEXTS.notFound);
  });

  it('keeps polling, further apart, after a server error', async () => {
    server.poll.mockRejectedValueOnce(httpError(503, 'busy'));
    const { actor } = startJob(server);
    await flush();
    await vi.advanceTimersByTimeAsync(1000);
    expect(actor.getSnapshot().matches({ polling: 'waiting' })).toBe(true);
    expect(actor.getSnapshot().context.pollAttempt).toBe(1);
  });

  it('retries the result fetch on a network error, and fails on a refusal', async () => {
    server.poll.mockResolvedValue(buildStatus({ status: 'success_image' }));
    server.fetch.mockRejectedValueOnce(networkError()).mockRejectedValueOnce(httpError(403, 'Forbidden'));
    const { actor } = startJob(server);
    await flush();
    await vi.advanceTimersByTimeAsync(1000);
    expect(actor.getSnapshot().matches({ fetchingResult: 'retrying' })).toBe(true);
    expect(phase(actor)).toBe('reconnecting');
    actor.send({ type: 'job.online' });
    await flush();
    expect(actor.getSnapshot().value).toBe('failed');
    expect(actor.getSnapshot().context.error).toBe('Forbidden');
  });
});

describe('network errors while polling', () => {
  it('shows reconnecting, retries after the back-off or at once when back online', async () => {
    server.poll
      .mockRejectedValueOnce(networkError())
      .mockRejectedValueOnce(networkError())
      .mockResolvedValueOnce(buildStatus({ progress: 70, updated_at: '2025-01-01T10:00:04.000Z' }));
    const { actor } = startJob(server);
    await flush();
    await vi.advanceTimersByTimeAsync(1000);
    expect(actor.getSnapshot().matches({ polling: 'reconnecting' })).toBe(true);
    expect(actor.getSnapshot().hasTag('reconnecting')).toBe(true);
    expect(phase(actor)).toBe('reconnecting');
    expect(selectCanCancel(actor.getSnapshot())).toBe(true);

    await vi.advanceTimersByTimeAsync(500);
    expect(server.poll).toHaveBeenCalledTimes(2);
    expect(actor.getSnapshot().matches({ polling: 'reconnecting' })).toBe(true);

    actor.send({ type: 'job.online' });
    await flush();
    expect(server.poll).toHaveBeenCalledTimes(3);
    expect(selectJobView(actor.getSnapshot())).toMatchObject({ phase: 'processing', progress: 70 });
    expect(actor.getSnapshot().context.retryAttempt).toBe(0);
  });
});

describe('time-outs (a request that hangs)', () => {
  it('gives up a poll after JOB_REQUEST_TIMEOUT_MS, aborting it, and reconnects', async () => {
    const signals: AbortSignal[] = [];
    let polls = 0;
    const hang = jobMachineFor(server).provide({
      actors: {
        pollStatus: fromPromise<ProcessingStatus, { mediaId: string }>(({ input, signal }) => {
          signals.push(signal);
          polls += 1;
          return polls === 1 ? new Promise<ProcessingStatus>(() => {}) : server.poll(input.mediaId);
        }),
      },
    });
    const actor = createActor(hang, { input: buildJobInput({ mediaId: 'media-1', fields: null }) }).start();
    await flush();
    expect(actor.getSnapshot().matches({ polling: 'checking' })).toBe(true);
    await vi.advanceTimersByTimeAsync(JOB_REQUEST_TIMEOUT_MS - 1);
    expect(actor.getSnapshot().matches({ polling: 'checking' })).toBe(true);
    await vi.advanceTimersByTimeAsync(1);
    expect(actor.getSnapshot().matches({ polling: 'reconnecting' })).toBe(true);
    expect(selectJobView(actor.getSnapshot()).phase).toBe('reconnecting');
    expect(signals[0]?.aborted).toBe(true);
    await vi.advanceTimersByTimeAsync(500);
    expect(polls).toBe(2);
    expect(server.poll).toHaveBeenCalledWith('media-1');
  });

  it('gives up a result fetch and a cancel that hang, and tries them again', async () => {
    server.poll.mockResolvedValue(buildStatus({ status: 'success_image', progress: 100 }));
    server.fetch.mockImplementationOnce(() => new Promise<Media>(() => {}));
    const { actor } = startJob(server, { mediaId: 'media-1', fields: null });
    await flush();
    expect(actor.getSnapshot().matches({ fetchingResult: 'loading' })).toBe(true);
    await vi.advanceTimersByTimeAsync(JOB_REQUEST_TIMEOUT_MS);
    expect(actor.getSnapshot().matches({ fetchingResult: 'retrying' })).toBe(true);
    await vi.advanceTimersByTimeAsync(500);
    expect(actor.getSnapshot().value).toBe('succeeded');

    server.poll.mockResolvedValue(buildStatus());
    server.cancel.mockImplementationOnce(() => new Promise<Media>(() => {}));
    const second = startJob(server, { mediaId: 'media-1', fields: null });
    await flush();
    second.actor.send({ type: 'job.cancel' });
    await vi.advanceTimersByTimeAsync(JOB_REQUEST_TIMEOUT_MS);
    expect(second.actor.getSnapshot().matches({ cancelling: 'retrying' })).toBe(true);
    await vi.advanceTimersByTimeAsync(500);
    expect(server.cancel).toHaveBeenCalledTimes(2);
    expect(second.actor.getSnapshot().value).toBe('cancelled');
  });
});

describe('visibility (no polling while the page is hidden)', () => {
  it('pauses while hidden, sends nothing, and polls at once when shown', async () => {
    const { actor } = startJob(server);
    await flush();
    actor.send({ type: 'job.visibility', hidden: true });
    expect(actor.getSnapshot().matches({ polling: 'paused' })).toBe(true);
    expect(phase(actor)).toBe('paused');

    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(server.poll).not.toHaveBeenCalled();

    actor.send({ type: 'job.visibility', hidden: false });
    await flush();
    expect(server.poll).toHaveBeenCalledTimes(1);
    expect(actor.getSnapshot().context.pollAttempt).toBe(1);
  });

  it('drops a poll in flight when the page is hidden', async () => {
    const answer = deferred<ReturnType<typeof buildStatus>>();
    server.poll.mockReturnValueOnce(answer.promise);
    const { actor } = startJob(server);
    await flush();
    await vi.advanceTimersByTimeAsync(1000);
    expect(actor.getSnapshot().matches({ polling: 'checking' })).toBe(true);
    actor.send({ type: 'job.visibility', hidden: true });
    answer.resolve(buildStatus({ progress: 90, updated_at: '2025-01-01T10:00:09.000Z' }));
    await flush();
    expect(actor.getSnapshot().matches({ polling: 'paused' })).toBe(true);
    expect(actor.getSnapshot().context.progress).toBe(0);
  });

  it('pauses as soon as the submit is answered when the page was hidden meanwhile', async () => {
    const { actor } = startJob(server, { hidden: true });
    await flush();
    expect(server.submit).toHaveBeenCalledTimes(1);
    expect(actor.getSnapshot().matches({ polling: 'paused' })).toBe(true);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(server.poll).not.toHaveBeenCalled();
  });

  it('a hidden reconnecting job pauses too', async () => {
    server.poll.mockRejectedValueOnce(networkError());
    const { actor } = startJob(server);
    await flush();
    await vi.advanceTimersByTimeAsync(1000);
    actor.send({ type: 'job.visibility', hidden: true });
    expect(actor.getSnapshot().matches({ polling: 'paused' })).toBe(true);
    actor.send({ type: 'job.visibility', hidden: true });
    actor.send({ type: 'job.online' });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(server.poll).toHaveBeenCalledTimes(1);
  });
});

describe('stale answers', () => {
  it('ignores a poll answer older than the last one applied', async () => {
    server.poll
      .mockResolvedValueOnce(buildStatus({ progress: 60, updated_at: '2025-01-01T10:00:06.000Z' }))
      .mockResolvedValueOnce(buildStatus({ status: 'queue_source', progress: 10, updated_at: '2025-01-01T10:00:02.000Z' }))
      .mockResolvedValueOnce(buildStatus({ progress: 60, updated_at: '2025-01-01T10:00:06.000Z' }));
    const { actor } = startJob(server);
    await flush();
    await vi.advanceTimersByTimeAsync(1000);
    expect(actor.getSnapshot().context).toMatchObject({ progress: 60, lastUpdatedAt: '2025-01-01T10:00:06.000Z' });
    await vi.advanceTimersByTimeAsync(1000);
    expect(server.poll).toHaveBeenCalledTimes(2);
    expect(actor.getSnapshot().context).toMatchObject({ progress: 60, status: 'processing_source' });
    // An answer as new as the last one is applied.
    await vi.advanceTimersByTimeAsync(1000);
    expect(server.poll).toHaveBeenCalledTimes(3);
    expect(actor.getSnapshot().context.lastUpdatedAt).toBe('2025-01-01T10:00:06.000Z');
  });

  it('ignores a stale "processing" answer after the submit already answered newer', async () => {
    server.submit.mockResolvedValue(buildMedia({ status: 'processing_source', progress: 30, updated_at: '2025-01-01T10:00:05.000Z' }));
    server.poll.mockResolvedValueOnce(buildStatus({ status: 'queue_source', progress: 0, updated_at: '2025-01-01T10:00:00.000Z' }));
    const { actor } = startJob(server);
    await flush();
    await vi.advanceTimersByTimeAsync(1000);
    expect(actor.getSnapshot().context).toMatchObject({ status: 'processing_source', progress: 30 });
  });

  it('ignores a poll answer that arrives after cancel', async () => {
    const answer = deferred<ReturnType<typeof buildStatus>>();
    server.poll.mockReturnValueOnce(answer.promise);
    const { actor } = startJob(server);
    await flush();
    await vi.advanceTimersByTimeAsync(1000);
    actor.send({ type: 'job.cancel' });
    await flush();
    expect(actor.getSnapshot().value).toBe('cancelled');
    answer.resolve(buildStatus({ status: 'success_image', progress: 100, updated_at: '2025-01-01T10:00:09.000Z' }));
    await flush();
    expect(actor.getSnapshot().value).toBe('cancelled');
    expect(actor.getSnapshot().context.status).toBe('cancelled');
    expect(server.fetch).not.toHaveBeenCalled();
  });

  it('a final job takes no more events', async () => {
    server.submit.mockResolvedValue(buildFinishedMedia());
    const { actor, reports } = startJob(server);
    await flush();
    actor.send({ type: 'job.cancel' });
    actor.send({ type: 'job.visibility', hidden: false });
    actor.send({ type: 'job.online' });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(actor.getSnapshot().value).toBe('succeeded');
    expect(reports.filter((report) => report.type === 'job.settled')).toHaveLength(1);
    expect(server.cancel).not.toHaveBeenCalled();
  });
});

describe('cancel in each live state', () => {
  const cancelledMedia = buildMedia({ status: 'cancelled', refunded: true, updated_at: '2025-01-01T10:00:06.000Z' });

  it('submitting: remembered, then carried out once the server names the job', async () => {
    const submitted = deferred<ReturnType<typeof buildMedia>>();
    server.submit.mockReturnValueOnce(submitted.promise);
    const { actor, reports } = startJob(server);
    expect(selectCanCancel(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'job.cancel' });
    expect(phase(actor)).toBe('cancelling');
    expect(selectCanCancel(actor.getSnapshot())).toBe(false);
    submitted.resolve(buildMedia());
    await flush();
    expect(server.cancel).toHaveBeenCalledWith('media-1');
    expect(actor.getSnapshot().value).toBe('cancelled');
    expect(reports.at(-1)).toMatchObject({ outcome: 'cancelled', refunded: true, error: null });
    expect(server.poll).not.toHaveBeenCalled();
  });

  it('submitting: a refused request after cancel is simply cancelled', async () => {
    const submitted = deferred<ReturnType<typeof buildMedia>>();
    server.submit.mockReturnValueOnce(submitted.promise);
    const { actor } = startJob(server);
    actor.send({ type: 'job.cancel' });
    submitted.reject(httpError(400, 'Bad prompt'));
    await flush();
    expect(actor.getSnapshot().value).toBe('cancelled');
    expect(server.cancel).not.toHaveBeenCalled();
  });

  it('submitting.retrying: the request is resolved with the same key, then cancelled', async () => {
    server.submit.mockRejectedValueOnce(networkError());
    const { actor } = startJob(server);
    await flush();
    expect(actor.getSnapshot().value).toEqual({ submitting: 'retrying' });
    actor.send({ type: 'job.cancel' });
    expect(phase(actor)).toBe('cancelling');
    await vi.advanceTimersByTimeAsync(500);
    expect(server.submit.mock.calls.map(([input]) => input.idempotencyKey)).toEqual(['key-1', 'key-1']);
    expect(server.cancel).toHaveBeenCalledTimes(1);
    expect(actor.getSnapshot().value).toBe('cancelled');
  });

  it.each([
    ['polling.waiting', async () => {}],
    ['polling.checking', async () => vi.advanceTimersByTimeAsync(1000)],
  ])('%s', async (state, reach) => {
    server.poll.mockReturnValue(new Promise(() => {}));
    const { actor } = startJob(server);
    await flush();
    await reach();
    expect(actor.getSnapshot().matches(state.replace('polling.', '') === 'waiting' ? { polling: 'waiting' } : { polling: 'checking' })).toBe(true);
    actor.send({ type: 'job.cancel' });
    expect(phase(actor)).toBe('cancelling');
    await flush();
    expect(actor.getSnapshot().value).toBe('cancelled');
    expect(actor.getSnapshot().context.refunded).toBe(true);
  });

  it('polling.paused', async () => {
    const { actor } = startJob(server, { hidden: true });
    await flush();
    expect(actor.getSnapshot().matches({ polling: 'paused' })).toBe(true);
    actor.send({ type: 'job.cancel' });
    await flush();
    expect(actor.getSnapshot().value).toBe('cancelled');
  });

  it('polling.reconnecting', async () => {
    server.poll.mockRejectedValue(networkError());
    const { actor } = startJob(server);
    await flush();
    await vi.advanceTimersByTimeAsync(1000);
    expect(actor.getSnapshot().matches({ polling: 'reconnecting' })).toBe(true);
    actor.send({ type: 'job.cancel' });
    await flush();
    expect(actor.getSnapshot().value).toBe('cancelled');
  });

  it('an ended job answers 409: its real end is fetched', async () => {
    server.cancel.mockRejectedValue(httpError(409, 'This job has already ended.'));
    const { actor } = startJob(server);
    await flush();
    actor.send({ type: 'job.cancel' });
    await flush();
    expect(server.fetch).toHaveBeenCalledWith('media-1');
    expect(actor.getSnapshot().value).toBe('succeeded');
  });

  it('a cancel that cannot reach the server is retried', async () => {
    server.cancel.mockRejectedValueOnce(networkError()).mockResolvedValueOnce(cancelledMedia);
    const { actor } = startJob(server);
    await flush();
    actor.send({ type: 'job.cancel' });
    await flush();
    expect(actor.getSnapshot().matches({ cancelling: 'retrying' })).toBe(true);
    expect(phase(actor)).toBe('cancelling');
    await vi.advanceTimersByTimeAsync(500);
    expect(server.cancel).toHaveBeenCalledTimes(2);
    expect(actor.getSnapshot().value).toBe('cancelled');
  });

  it('a cancel the server refuses otherwise fails the job with its detail', async () => {
    server.cancel.mockRejectedValue(httpError(404, 'Media not found'));
    const { actor } = startJob(server);
    await flush();
    actor.send({ type: 'job.cancel' });
    await flush();
    expect(actor.getSnapshot().value).toBe('failed');
    expect(actor.getSnapshot().context.error).toBe('Media not found');
  });
});

describe('resume (after a reload)', () => {
  it('polls the stored media at once, without submitting or checking credit', async () => {
    server.poll.mockResolvedValue(buildStatus({ status: 'success_image' }));
    const { actor, reports } = startJob(server, { mediaId: 'media-1', fields: null, user: null, credit: null });
    await flush();
    expect(server.submit).not.toHaveBeenCalled();
    expect(server.poll).toHaveBeenCalledWith('media-1');
    expect(actor.getSnapshot().value).toBe('succeeded');
    expect(reports.map((report) => report.type)).toEqual(['job.settled']);
  });

  it('waits while hidden', async () => {
    const { actor } = startJob(server, { mediaId: 'media-1', fields: null, hidden: true });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(server.poll).not.toHaveBeenCalled();
    expect(actor.getSnapshot().matches({ polling: 'paused' })).toBe(true);
  });

  it('re-sends an unanswered request with its key and fields, without a credit check', async () => {
    const { actor } = startJob(server, { resubmit: true, user: null, credit: null, idempotencyKey: 'stored-key' });
    await flush();
    expect(server.submit).toHaveBeenCalledWith(expect.objectContaining({ idempotencyKey: 'stored-key', fields: buildJobInput().fields }));
    expect(actor.getSnapshot().matches('polling')).toBe(true);
  });
});

describe('back-off bounds (JOB_POLL full jitter, real delays)', () => {
  it('waits just under the ceiling with Math.random → 0.999: 1998, 3996, 7992, 15 984, then 29 970 ms', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.999);
    startJob(server, {}, { realDelays: true });
    await flush();
    for (const [index, wait] of [1998, 3996, 7992, 15_984, 29_970, 29_970].entries()) {
      await vi.advanceTimersByTimeAsync(wait - 1);
      expect(server.poll).toHaveBeenCalledTimes(index);
      await vi.advanceTimersByTimeAsync(1);
      expect(server.poll).toHaveBeenCalledTimes(index + 1);
    }
  });

  it('polls at once with Math.random → 0', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    server.poll
      .mockResolvedValueOnce(buildStatus({ progress: 10 }))
      .mockResolvedValueOnce(buildStatus({ progress: 20 }))
      .mockResolvedValueOnce(buildStatus({ status: 'success_image', progress: 100 }));
    const { actor } = startJob(server, {}, { realDelays: true });
    // Each wait is 0 ms (which timers, like Node's, run after 1 ms): three polls in 3 ms.
    await vi.advanceTimersByTimeAsync(3);
    expect(server.poll).toHaveBeenCalledTimes(3);
    expect(actor.getSnapshot().value).toBe('succeeded');
  });

  it('spaces network retries with the same bounds', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.999);
    server.submit.mockRejectedValueOnce(networkError()).mockRejectedValueOnce(networkError());
    startJob(server, {}, { realDelays: true });
    await flush();
    await vi.advanceTimersByTimeAsync(1997);
    expect(server.submit).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(server.submit).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(3995);
    expect(server.submit).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(server.submit).toHaveBeenCalledTimes(3);
  });
});

describe('the parent hears from its child', () => {
  it('gets job.submitted and job.settled by sendParent', async () => {
    server.poll.mockResolvedValue(buildStatus({ status: 'success_image' }));
    const heard: GenerationJobParentEvent[] = [];
    const parent = setup({
      types: { events: {} as GenerationJobParentEvent },
      actors: { job: jobMachineFor(server) },
    }).createMachine({
      invoke: { src: 'job', id: 'job', input: buildJobInput() },
      on: {
        'job.submitted': { actions: ({ event }) => heard.push(event) },
        'job.settled': { actions: ({ event }) => heard.push(event) },
      },
    });
    const actor = createActor(parent).start();
    const child = actor.getSnapshot().children.job as ActorRefFrom<ReturnType<typeof jobMachineFor>>;
    await flush();
    await vi.advanceTimersByTimeAsync(1000);
    expect(child.getSnapshot().value).toBe('succeeded');
    expect(heard.map((event) => event.type)).toEqual(['job.submitted', 'job.settled']);
    expect(heard[1]).toMatchObject({ localId: 'job-1', outcome: 'succeeded', media: { id: 'media-1', status: 'success_image' } });
    actor.stop();
  });
});
