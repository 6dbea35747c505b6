import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, setup, waitFor } from 'xstate';
import type { ActorRefFrom } from 'xstate';
import { creditsMachine } from '@/machines/session/credits.machine';
import type { CreditsParentEvent } from '@/machines/session/credits.machine';
import { selectCreditBalance, selectCreditsLoading } from '@/machines/session/credits.selectors';

/** The credits machine as the session holds it: a child whose reports reach its parent. */
function startCredits(fetch: () => Promise<{ credit: number }>) {
  const fetchCredits = vi.fn(fetch);
  const reports: CreditsParentEvent[] = [];
  const parent = setup({
    types: { events: {} as CreditsParentEvent },
    actors: { credits: creditsMachine.provide({ actors: { fetchCredits: fromPromise(() => fetchCredits()) } }) },
  }).createMachine({
    invoke: { src: 'credits', id: 'credits' },
    on: { 'credits.fetchFailed': { actions: ({ event }) => reports.push(event) } },
  });
  const actor = createActor(parent).start();
  const credits = actor.getSnapshot().children.credits as ActorRefFrom<typeof creditsMachine>;
  return { actor, credits, fetchCredits, reports };
}

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('credits machine (SPEC §7 credits/get, §8)', () => {
  it('fetches the balance', async () => {
    const { actor, credits, fetchCredits } = startCredits(async () => ({ credit: 120 }));
    expect(selectCreditsLoading(credits.getSnapshot())).toBe(true);
    expect(selectCreditBalance(credits.getSnapshot())).toBeNull();
    const snapshot = await waitFor(credits, (s) => s.matches('loaded'));
    expect(selectCreditBalance(snapshot)).toBe(120);
    expect(selectCreditsLoading(snapshot)).toBe(false);
    expect(fetchCredits).toHaveBeenCalledTimes(1);
    actor.stop();
  });

  it('tries 2 more times after a short wait, then reports the failure to the session once', async () => {
    const { actor, credits, fetchCredits, reports } = startCredits(async () => {
      throw new Error('api error');
    });
    await waitFor(credits, (s) => s.matches('waitingToRetry'));
    expect(selectCreditsLoading(credits.getSnapshot())).toBe(true);
    expect(fetchCredits).toHaveBeenCalledTimes(1);

    await vi.advanceTimersByTimeAsync(999);
    expect(fetchCredits).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetchCredits).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1000);
    expect(fetchCredits).toHaveBeenCalledTimes(3);

    const snapshot = await waitFor(credits, (s) => s.matches('failed'));
    expect(reports).toEqual([{ type: 'credits.fetchFailed' }]);
    expect(selectCreditsLoading(snapshot)).toBe(false);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(fetchCredits).toHaveBeenCalledTimes(3);
    actor.stop();
  });

  it('reports nothing when a retry succeeds', async () => {
    let calls = 0;
    const { actor, credits, reports } = startCredits(async () => {
      calls += 1;
      if (calls < 3) throw new Error('api error');
      return { credit: 5 };
    });
    await vi.advanceTimersByTimeAsync(2000);
    const snapshot = await waitFor(credits, (s) => s.matches('loaded'));
    expect(selectCreditBalance(snapshot)).toBe(5);
    expect(reports).toEqual([]);
    actor.stop();
  });

  it('starts again with a fresh count of attempts on refresh', async () => {
    let fail = true;
    const { actor, credits, fetchCredits, reports } = startCredits(async () => {
      if (fail) throw new Error('api error');
      return { credit: 9 };
    });
    await vi.advanceTimersByTimeAsync(2000);
    await waitFor(credits, (s) => s.matches('failed'));

    credits.send({ type: 'credits.refresh' });
    await waitFor(credits, (s) => s.matches('waitingToRetry'));
    fail = false;
    await vi.advanceTimersByTimeAsync(1000);
    const snapshot = await waitFor(credits, (s) => s.matches('loaded'));
    expect(selectCreditBalance(snapshot)).toBe(9);
    expect(fetchCredits).toHaveBeenCalledTimes(5);
    expect(reports).toHaveLength(1);
    actor.stop();
  });

  it('keeps the balance on screen while a refresh runs, and never lets a stale answer land', async () => {
    const answers: ((value: { credit: number }) => void)[] = [];
    const { actor, credits } = startCredits(() => new Promise((resolve) => answers.push(resolve)));
    answers[0]!({ credit: 10 });
    await waitFor(credits, (s) => s.matches('loaded'));

    credits.send({ type: 'credits.refresh' });
    credits.send({ type: 'credits.refresh' });
    expect(answers).toHaveLength(3);
    expect(selectCreditBalance(credits.getSnapshot())).toBe(10);

    answers[2]!({ credit: 30 });
    await waitFor(credits, (s) => s.matches('loaded'));
    answers[1]!({ credit: 20 });
    await vi.advanceTimersByTimeAsync(0);
    expect(selectCreditBalance(credits.getSnapshot())).toBe(30);
    actor.stop();
  });
});
