import { afterEach, describe, expect, it } from 'vitest';
import { assign, createActor, fromPromise, setup, waitFor } from 'xstate';
import type { SessionRef } from '@/machines/account-link/account-link';
import type { CheckoutStatus, CreditHistory } from '@/services/schemas/payments';
import type { UserCredits } from '@/services/schemas/credits';
import { batchMachine } from '@/machines/batch/batch.machine';
import type { Batch } from '@/machines/batch/batch.machine';
import { creditsPageMachine } from '@/machines/credits-page/credits-page.machine';
import { jobsMachine } from '@/machines/jobs/jobs.machine';
import { buildBatch } from '../batch/batch.fixtures';
import { CREATOR } from '../generation-job/generation-job.fixtures';

/**
 * The machines that used to be fed by React effects (issue 18) follow the session themselves: the
 * person and their balance through their `account` actor, the page through `watchPage`; their
 * balance refresh reaches the session's credits actor. The session here is a stand-in with the
 * same shape (its user in the context, its credits actor registered as `credits`), so these tests
 * do not depend on the session's sign-in steps.
 */

type CreditsEvent = { type: 'credits.refresh' } | { type: 'credits.set'; balance: number } | { type: 'credits.load' };

const creditsStandIn = setup({
  types: { context: {} as { balance: number | null; refreshes: number }, events: {} as CreditsEvent },
}).createMachine({
  id: 'credits',
  context: { balance: 100, refreshes: 0 },
  initial: 'ready',
  on: {
    'credits.refresh': { actions: assign({ refreshes: ({ context }) => context.refreshes + 1 }) },
    'credits.set': { target: '.ready', actions: assign({ balance: ({ event }) => event.balance }) },
    'credits.load': '.loading',
  },
  states: { ready: {}, loading: {} },
});

const ALICE = { userId: 'user-1', username: 'alice', ...CREATOR };
const BOB = { userId: 'user-2', username: 'bob', ...CREATOR };

type SessionEvent = { type: 'signIn'; user: typeof ALICE } | { type: 'signOut' };

const sessionStandIn = setup({
  types: { context: {} as { currentUser: typeof ALICE | null }, events: {} as SessionEvent },
  actors: { credits: creditsStandIn },
}).createMachine({
  id: 'session',
  context: { currentUser: null },
  initial: 'signedOut',
  states: {
    signedOut: {
      on: { signIn: { target: 'signedIn', actions: assign({ currentUser: ({ event }) => event.user }) } },
    },
    signedIn: {
      invoke: { src: 'credits', id: 'credits', systemId: 'credits' },
      on: {
        signOut: { target: 'signedOut', actions: assign({ currentUser: null }) },
        signIn: { target: 'signedIn', reenter: true, actions: assign({ currentUser: ({ event }) => event.user }) },
      },
    },
  },
});

function startSession() {
  const actor = createActor(sessionStandIn).start();
  const credits = () => actor.system.get('credits') as { getSnapshot: () => { context: { refreshes: number } }; send: (event: CreditsEvent) => void } | undefined;
  return { actor, ref: actor as unknown as SessionRef, credits };
}

const stopped: { stop: () => void }[] = [];
const started = <T extends { stop: () => void }>(actor: T): T => {
  stopped.push(actor);
  return actor;
};

afterEach(() => {
  for (const actor of stopped.splice(0)) actor.stop();
  Reflect.deleteProperty(document, 'visibilityState');
});

const setVisibility = (state: DocumentVisibilityState) => {
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state });
  document.dispatchEvent(new Event('visibilitychange'));
};

describe('the jobs registry follows the session', () => {
  it('takes the person and their balance from the session, and each change after', () => {
    const session = startSession();
    session.actor.send({ type: 'signIn', user: ALICE });
    const jobs = started(createActor(jobsMachine, { input: { session: session.ref } }).start());
    expect(jobs.getSnapshot().context).toMatchObject({ userId: 'user-1', user: ALICE, credit: 100 });

    session.credits()?.send({ type: 'credits.set', balance: 40 });
    expect(jobs.getSnapshot().context.credit).toBe(40);

    session.actor.send({ type: 'signIn', user: BOB });
    expect(jobs.getSnapshot().context).toMatchObject({ userId: 'user-2', user: BOB, credit: 100 });

    session.actor.send({ type: 'signOut' });
    expect(jobs.getSnapshot().context).toMatchObject({ userId: null, user: null, credit: null });
  });

  it('forwards the page going hidden and visible to its own state', () => {
    const jobs = started(createActor(jobsMachine, { input: {} }).start());
    setVisibility('hidden');
    expect(jobs.getSnapshot().context.hidden).toBe(true);
    setVisibility('visible');
    expect(jobs.getSnapshot().context.hidden).toBe(false);
  });

  it('stops following the page and the session once it is stopped', () => {
    const session = startSession();
    const jobs = createActor(jobsMachine, { input: { session: session.ref } }).start();
    jobs.stop();
    setVisibility('hidden');
    session.actor.send({ type: 'signIn', user: ALICE });
    expect(jobs.getSnapshot().context).toMatchObject({ hidden: false, userId: null });
  });
});

describe('the album follows the session', () => {
  const album = () =>
    batchMachine.provide({
      actors: {
        loadBatch: fromPromise<Batch, { id: string }>(async () => buildBatch()),
        deleteAlbum: fromPromise<{ id: string; deleted: true }, { id: string }>(async () => ({ id: 'album-1', deleted: true })),
      },
    });

  it('keeps its credit check on the person, the balance and whether it is loading', () => {
    const session = startSession();
    session.actor.send({ type: 'signIn', user: ALICE });
    const actor = started(createActor(album(), { input: { batchId: 'album-1', session: session.ref } }).start());
    expect(actor.getSnapshot().context).toMatchObject({ user: ALICE, credit: 100, creditLoading: false });
    session.credits()?.send({ type: 'credits.load' });
    expect(actor.getSnapshot().context.creditLoading).toBe(true);
    session.credits()?.send({ type: 'credits.set', balance: 12 });
    expect(actor.getSnapshot().context).toMatchObject({ credit: 12, creditLoading: false });
  });

  it('asks the credits actor for the balance once the album is deleted', async () => {
    const session = startSession();
    session.actor.send({ type: 'signIn', user: ALICE });
    const actor = createActor(album(), { input: { batchId: 'album-1', session: session.ref } }).start();
    await waitFor(actor, (snapshot) => snapshot.matches('ready'), { timeout: 2_000 });
    actor.send({ type: 'batch.delete' });
    await waitFor(actor, (snapshot) => snapshot.status === 'done', { timeout: 2_000 });
    expect(session.credits()?.getSnapshot().context.refreshes).toBe(1);
  });

  it('pauses with the page', () => {
    const actor = started(createActor(album(), { input: { batchId: 'album-1' } }).start());
    setVisibility('hidden');
    expect(actor.getSnapshot().context.hidden).toBe(true);
  });
});

const PAID: CheckoutStatus = {
  session_id: 'cs_1',
  status: 'paid',
  pack_id: 'pack-100',
  credits: 100,
  amount_cents: 1000,
  currency: 'USD',
  customer_id: null,
  payment_id: 'pay-1',
};

describe('the credits page reaches the credits actor', () => {
  it('asks for the balance after a paid checkout, through the session', async () => {
    const session = startSession();
    session.actor.send({ type: 'signIn', user: ALICE });
    const page = creditsPageMachine.provide({
      actors: {
        loadAccount: fromPromise<UserCredits>(async () => ({ credit: 30, auto_refill: 'off', card: null })),
        loadHistory: fromPromise<CreditHistory, { nextStartKeys: string | null }>(async () => ({ items: [], next_start_keys: null })),
        checkCheckout: fromPromise<CheckoutStatus, { sessionId: string }>(async () => PAID),
      },
    });
    const actor = started(
      createActor(page, { input: { checkoutReturn: { outcome: 'success', sessionId: 'cs_1' }, session: session.ref } }).start(),
    );
    await waitFor(actor, (snapshot) => snapshot.context.checkoutResult !== null, { timeout: 2_000 });
    expect(actor.getSnapshot().context.checkoutResult).toEqual({ outcome: 'paid', credits: 100 });
    expect(session.credits()?.getSnapshot().context.refreshes).toBe(1);
  });
});
