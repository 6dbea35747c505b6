import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, setup } from 'xstate';
import { paidRequestWith, type PaidRequestInput, type PaidSubmitInput } from '@/machines/paid-request/paid-request.machine';
import {
  selectPaidRequestKey,
  selectPaidRequestOutcome,
  selectPaidRequestReconnecting,
  selectPaidRequestRetries,
  selectPaidRequestStage,
} from '@/machines/paid-request/paid-request.selectors';
import { CREATOR, DEVELOPER, httpError, networkError } from '../generation-job/generation-job.fixtures';

type Request = { board: string };

beforeEach(() => {
  vi.useFakeTimers();
  // A retry waits a full-jitter delay (0 up to its ceiling): a draw near 0 would send it again
  // inside the same flush, so the draw is fixed mid-range and each test sees one retry at a time.
  vi.spyOn(Math, 'random').mockReturnValue(0.5);
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

function start(submit: (input: PaidSubmitInput<Request>) => Promise<string>, input: Partial<PaidRequestInput> = {}) {
  const calls: PaidSubmitInput<Request>[] = [];
  const machine = paidRequestWith<Request, string>((call) => {
    calls.push(call);
    return submit(call);
  });
  const actor = createActor(machine, {
    input: { user: CREATOR, credit: 10, cost: 8, request: { board: 'b' }, maxRetries: 2, ...input },
  });
  actor.start();
  return { actor, calls };
}

const flush = () => vi.advanceTimersByTimeAsync(0);
/** Past the longest full-jitter wait of the first retries (JOB_POLL caps at 30 s). */
const afterRetryWait = () => vi.advanceTimersByTimeAsync(30_000);

describe('paidRequest', () => {
  it('sends the request once with a new key and ends with the answer', async () => {
    const { actor, calls } = start(async () => 'answer');
    expect(selectPaidRequestStage(actor.getSnapshot())).toBe('submitting');
    await flush();
    expect(calls).toEqual([{ request: { board: 'b' }, idempotencyKey: selectPaidRequestKey(actor.getSnapshot()) }]);
    expect(selectPaidRequestStage(actor.getSnapshot())).toBe('done');
    expect(actor.getSnapshot().output).toEqual({ outcome: 'done', answer: 'answer', idempotencyKey: calls[0]!.idempotencyKey });
    expect(selectPaidRequestOutcome(actor.getSnapshot())).toEqual(actor.getSnapshot().output);
  });

  it('refuses before sending anything when the balance is short, in the words asked for', async () => {
    const { actor, calls } = start(async () => 'answer', { credit: 5, wording: 'story' });
    await flush();
    expect(calls).toHaveLength(0);
    expect(selectPaidRequestStage(actor.getSnapshot())).toBe('refused');
    expect(actor.getSnapshot().output).toEqual({
      outcome: 'refused',
      reason: 'notEnoughCredits',
      message: 'Not enough credits: this step costs 8 credits and you have 5.',
    });
    const job = start(async () => 'answer', { credit: 5 });
    expect(job.actor.getSnapshot().output).toMatchObject({ message: 'Not enough credits: this costs 8 credits and you have 5.' });
  });

  it('refuses a signed-out person, and lets the Developer group through without credits', async () => {
    const signedOut = start(async () => 'answer', { user: null });
    expect(signedOut.actor.getSnapshot().output).toEqual({
      outcome: 'refused',
      reason: 'signedOut',
      message: 'User needs to be authenticated to call this API.',
    });
    const developer = start(async () => 'answer', { user: DEVELOPER, credit: 0 });
    await flush();
    expect(developer.calls).toHaveLength(1);
    expect(developer.actor.getSnapshot().output).toMatchObject({ outcome: 'done' });
  });

  it('sends a request checked already (a resubmit after a reload) without a second check', async () => {
    const { actor, calls } = start(async () => 'answer', { user: null, credit: null, checked: true, idempotencyKey: 'stored-key' });
    await flush();
    expect(calls).toEqual([{ request: { board: 'b' }, idempotencyKey: 'stored-key' }]);
    expect(actor.getSnapshot().output).toMatchObject({ outcome: 'done', answer: 'answer' });
  });

  it('tells its parent when a retry starts and when the call is on its way again', async () => {
    let answers = 0;
    const child = paidRequestWith<Request, string>(async () => {
      answers += 1;
      if (answers === 1) throw networkError();
      return 'answer';
    });
    const heard: string[] = [];
    const parent = setup({ actors: { child } }).createMachine({
      invoke: {
        src: 'child',
        input: { user: CREATOR, credit: 10, cost: 8, request: { board: 'b' }, maxRetries: 2 },
      },
      on: {
        'paid.retrying': { actions: ({ event }) => heard.push(event.type) },
        'paid.sending': { actions: ({ event }) => heard.push(event.type) },
      },
    });
    createActor(parent).start();
    await flush();
    expect(heard).toEqual(['paid.retrying']);
    await afterRetryWait();
    expect(heard).toEqual(['paid.retrying', 'paid.sending']);
    expect(answers).toBe(2);
  });

  it('sends the same key again after no answer, and gives up after maxRetries', async () => {
    const { actor, calls } = start(async () => {
      throw networkError();
    });
    await flush();
    expect(selectPaidRequestStage(actor.getSnapshot())).toBe('retrying');
    expect(selectPaidRequestReconnecting(actor.getSnapshot())).toBe(true);
    expect(selectPaidRequestRetries(actor.getSnapshot())).toBe(1);
    await afterRetryWait();
    await afterRetryWait();
    expect(calls).toHaveLength(3);
    expect(new Set(calls.map((call) => call.idempotencyKey)).size).toBe(1);
    expect(selectPaidRequestStage(actor.getSnapshot())).toBe('failed');
    expect(actor.getSnapshot().output).toMatchObject({ outcome: 'failed', message: 'Network error on GET media' });
  });

  it('when gated, waits for the parent’s go before sending, and still refuses at once', async () => {
    const { actor, calls } = start(async () => 'answer', { gated: true });
    await flush();
    expect(selectPaidRequestStage(actor.getSnapshot())).toBe('waiting');
    expect(calls).toEqual([]);
    actor.send({ type: 'paid.go' });
    await flush();
    expect(calls).toHaveLength(1);
    expect(actor.getSnapshot().output).toMatchObject({ outcome: 'done', answer: 'answer' });

    const poor = start(async () => 'answer', { gated: true, credit: 7 });
    expect(poor.actor.getSnapshot().output).toMatchObject({ outcome: 'refused', reason: 'notEnoughCredits' });
    poor.actor.send({ type: 'paid.go' });
    await flush();
    expect(poor.calls).toEqual([]);
  });

  it('keeps a key it is given (a resubmit of the same click)', async () => {
    const { calls } = start(async () => 'answer', { idempotencyKey: 'key-1' });
    await flush();
    expect(calls[0]!.idempotencyKey).toBe('key-1');
  });

  it('retries a 5xx only when asked to, and never the server’s refusal (402)', async () => {
    const jobs = start(async () => {
      throw httpError(500, 'Boom');
    });
    await flush();
    expect(selectPaidRequestStage(jobs.actor.getSnapshot())).toBe('failed');
    expect(jobs.actor.getSnapshot().output).toMatchObject({ outcome: 'failed', message: 'Boom' });

    const answers = [httpError(500, 'Boom'), httpError(402, 'Not enough credits: this costs 8 credits and you have 4.')];
    const story = start(
      async () => {
        throw answers.shift();
      },
      { retryServerErrors: true },
    );
    await flush();
    expect(selectPaidRequestStage(story.actor.getSnapshot())).toBe('retrying');
    await afterRetryWait();
    expect(story.calls).toHaveLength(2);
    expect(story.actor.getSnapshot().output).toMatchObject({
      outcome: 'failed',
      message: 'Not enough credits: this costs 8 credits and you have 4.',
    });
  });

  it('retries a 409 (the first request with this key still running) as no answer', async () => {
    const answers: (() => Promise<string>)[] = [
      async () => {
        throw httpError(409, 'Still running');
      },
      async () => 'answer',
    ];
    const { actor, calls } = start(() => answers.shift()!());
    await flush();
    expect(selectPaidRequestStage(actor.getSnapshot())).toBe('retrying');
    await afterRetryWait();
    expect(calls).toHaveLength(2);
    expect(actor.getSnapshot().output).toMatchObject({ outcome: 'done', answer: 'answer' });
  });

  it('waits while the page is hidden, and sends at once when it is shown or back online', async () => {
    const answers: (() => Promise<string>)[] = [
      async () => {
        throw networkError();
      },
      async () => {
        throw networkError();
      },
      async () => 'answer',
    ];
    const { actor, calls } = start(() => answers.shift()!(), { hidden: true, maxRetries: 4 });
    await flush();
    await afterRetryWait();
    expect(calls).toHaveLength(1);
    expect(selectPaidRequestStage(actor.getSnapshot())).toBe('retrying');
    actor.send({ type: 'paid.visibility', hidden: false });
    await flush();
    expect(calls).toHaveLength(2);
    expect(selectPaidRequestStage(actor.getSnapshot())).toBe('retrying');
    actor.send({ type: 'paid.visibility', hidden: true });
    actor.send({ type: 'paid.online' });
    await flush();
    expect(calls).toHaveLength(3);
    expect(actor.getSnapshot().output).toMatchObject({ outcome: 'done' });
  });

  it('gives an unanswered send up after submitTimeoutMs and sends it again, when asked to', async () => {
    const answers: (() => Promise<string>)[] = [() => new Promise<string>(() => {}), async () => 'answer'];
    const { actor, calls } = start(() => answers.shift()!(), { submitTimeoutMs: 5_000 });
    await vi.advanceTimersByTimeAsync(4_999);
    expect(selectPaidRequestStage(actor.getSnapshot())).toBe('submitting');
    await vi.advanceTimersByTimeAsync(1);
    expect(selectPaidRequestStage(actor.getSnapshot())).toBe('retrying');
    await afterRetryWait();
    expect(calls).toHaveLength(2);
    expect(actor.getSnapshot().output).toMatchObject({ outcome: 'done', answer: 'answer' });
  });
});
