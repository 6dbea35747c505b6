import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Mock } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { MESSAGES } from '@/config/messages';
import { organisationMachine } from '@/machines/organisation/organisation.machine';
import type { CheckoutReturn, OrganisationEmitted, TransferAttempt } from '@/machines/organisation/organisation.machine';
import {
  selectAddError,
  selectBalance,
  selectCustomer,
  selectMembers,
  selectNotice,
  selectOrganisationBusy,
  selectOrganisationStatus,
  selectTransferError,
} from '@/machines/organisation/organisation.selectors';
import { organisationsMachine } from '@/machines/organisation/organisations.machine';
import {
  selectCreateError,
  selectCreating,
  selectOrganisations,
  selectOrganisationsError,
  selectOrganisationsStatus,
} from '@/machines/organisation/organisations.selectors';
import type { Checkout, CheckoutStatus } from '@/services/schemas/payments';
import type { Customer, CustomerList, CustomerMember, TransferResult } from '@/services/schemas/customers';
import { httpError } from '../generation-job/generation-job.fixtures';

const member = (sub: string, handle: string | null, credits = 0): CustomerMember => ({
  key: `b2b_members_${sub}`,
  id: sub,
  preferred_username: handle,
  email: `${handle ?? sub}@example.com`,
  added_at: '2025-03-01T10:00:00.000Z',
  credits_received: credits,
});

const customer = (overrides: Partial<Customer> = {}): Customer => ({
  id: 'org-1',
  name: 'Acme Studio',
  role: 'owner',
  owner: { id: 'owner-sub', preferred_username: 'olga' },
  balance: 500,
  members: [member('bob-sub', 'bob')],
  transfers: [],
  created_at: '2025-03-01T09:00:00.000Z',
  ...overrides,
});

const flush = () => vi.advanceTimersByTimeAsync(0);

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('the organisations list', () => {
  let list: Mock<() => Promise<CustomerList>>;
  let create: Mock<(name: string) => Promise<Customer>>;

  beforeEach(() => {
    list = vi.fn(async () => ({ items: [{ id: 'org-1', name: 'Acme Studio', role: 'owner' as const, member_count: 1 }] }));
    create = vi.fn(async (name: string) => customer({ id: 'org-9', name, members: [] }));
  });

  function start() {
    const actor = createActor(
      organisationsMachine.provide({
        actors: {
          loadOrganisations: fromPromise<CustomerList>(() => list()),
          createOrganisation: fromPromise<Customer, { name: string }>(({ input }) => create(input.name)),
        },
      }),
    );
    const created: string[] = [];
    actor.on('organisations.created', (event) => created.push(event.id));
    actor.start();
    return { actor, created };
  }

  it('loads the organisations, then creates one that joins the list and is announced', async () => {
    const { actor, created } = start();
    expect(selectOrganisationsStatus(actor.getSnapshot())).toBe('loading');
    await flush();
    expect(selectOrganisations(actor.getSnapshot()).map((item) => item.name)).toEqual(['Acme Studio']);

    actor.send({ type: 'organisations.create', name: '  Night Owls  ' });
    expect(selectCreating(actor.getSnapshot())).toBe(true);
    await flush();
    expect(create).toHaveBeenCalledWith('Night Owls');
    expect(selectCreating(actor.getSnapshot())).toBe(false);
    expect(selectOrganisations(actor.getSnapshot())).toEqual([
      { id: 'org-9', name: 'Night Owls', role: 'owner', member_count: 0 },
      { id: 'org-1', name: 'Acme Studio', role: 'owner', member_count: 1 },
    ]);
    expect(created).toEqual(['org-9']);
  });

  it('says why a load or a create failed, and loads again on refresh', async () => {
    list.mockRejectedValueOnce(httpError(500, 'The database is asleep.'));
    const { actor, created } = start();
    await flush();
    expect(selectOrganisationsStatus(actor.getSnapshot())).toBe('failed');
    expect(selectOrganisationsError(actor.getSnapshot())).toBe('The database is asleep.');
    actor.send({ type: 'organisations.refresh' });
    await flush();
    expect(selectOrganisationsStatus(actor.getSnapshot())).toBe('ready');

    create.mockRejectedValueOnce(httpError(400, 'Request body is invalid: name: Too big'));
    actor.send({ type: 'organisations.create', name: 'x'.repeat(90) });
    await flush();
    expect(selectCreateError(actor.getSnapshot())).toBe('Request body is invalid: name: Too big');
    expect(selectOrganisations(actor.getSnapshot())).toHaveLength(1);
    expect(created).toEqual([]);
  });
});

describe('one organisation', () => {
  let load: Mock<(id: string) => Promise<Customer>>;
  let add: Mock<(member: string) => Promise<Customer>>;
  let remove: Mock<(memberId: string) => Promise<Customer>>;
  let transfer: Mock<(attempt: TransferAttempt) => Promise<TransferResult>>;
  let purchase: Mock<(packId: string) => Promise<Checkout>>;
  let checkoutStatus: Mock<(sessionId: string) => Promise<CheckoutStatus>>;

  beforeEach(() => {
    load = vi.fn(async () => customer());
    add = vi.fn(async () => customer({ members: [member('bob-sub', 'bob'), member('cleo-sub', 'cleo')] }));
    remove = vi.fn(async () => customer({ members: [] }));
    transfer = vi.fn(async (attempt: TransferAttempt) => ({
      transfer: { id: 't-1', member_id: attempt.memberId, member_handle: 'bob', credits: attempt.credits, created_at: '2025-03-02T10:00:00.000Z' },
      customer: customer({ balance: 500 - attempt.credits, members: [member('bob-sub', 'bob', attempt.credits)] }),
    }));
    purchase = vi.fn(async () => ({ session_id: 'cs_1', checkout_url: '/local/checkout/cs_1' }));
    checkoutStatus = vi.fn(async (sessionId: string) => ({
      session_id: sessionId,
      status: 'paid' as const,
      pack_id: 'pack-500',
      credits: 500,
      amount_cents: 4500,
      currency: 'USD',
      customer_id: 'org-1',
      payment_id: 'pay-1',
    }));
  });

  function start(checkout: CheckoutReturn | null = null) {
    const actor = createActor(
      organisationMachine.provide({
        actors: {
          loadOrganisation: fromPromise<Customer, { customerId: string }>(({ input }) => load(input.customerId)),
          addMember: fromPromise<Customer, { customerId: string; member: string }>(({ input }) => add(input.member)),
          removeMember: fromPromise<Customer, { customerId: string; memberId: string }>(({ input }) => remove(input.memberId)),
          transferCredits: fromPromise<TransferResult, { customerId: string; attempt: TransferAttempt }>(({ input }) => transfer(input.attempt)),
          purchaseCredits: fromPromise<Checkout, { customerId: string; packId: string }>(({ input }) => purchase(input.packId)),
          readCheckout: fromPromise<CheckoutStatus, { sessionId: string }>(({ input }) => checkoutStatus(input.sessionId)),
        },
      }),
      { input: { customerId: 'org-1', checkout } },
    );
    const emitted: OrganisationEmitted[] = [];
    actor.on('*', (event) => emitted.push(event));
    actor.start();
    return { actor, emitted };
  }

  it('loads the organisation', async () => {
    const { actor } = start();
    expect(selectOrganisationStatus(actor.getSnapshot())).toBe('loading');
    await flush();
    expect(load).toHaveBeenCalledWith('org-1');
    expect(selectOrganisationStatus(actor.getSnapshot())).toBe('ready');
    expect(selectCustomer(actor.getSnapshot())?.name).toBe('Acme Studio');
    expect(selectBalance(actor.getSnapshot())).toBe(500);
  });

  it('tells an organisation it cannot see (404) from one that failed to load, which it retries', async () => {
    load.mockRejectedValueOnce(httpError(404, 'Failed to find an organisation with this id.'));
    const missing = start().actor;
    await flush();
    expect(selectOrganisationStatus(missing.getSnapshot())).toBe('notFound');

    load.mockRejectedValueOnce(httpError(503, 'Try again soon.'));
    const { actor } = start();
    await flush();
    expect(selectOrganisationStatus(actor.getSnapshot())).toBe('failed');
    actor.send({ type: 'organisation.retry' });
    await flush();
    expect(selectOrganisationStatus(actor.getSnapshot())).toBe('ready');
  });

  it('adds a member and says so; a 404 or a 409 stays under the form', async () => {
    const { actor, emitted } = start();
    await flush();
    actor.send({ type: 'organisation.addMember', member: ' @cleo ' });
    expect(selectOrganisationBusy(actor.getSnapshot())).toBe('adding');
    await flush();
    expect(add).toHaveBeenCalledWith('@cleo');
    expect(selectMembers(actor.getSnapshot()).map((entry) => entry.preferred_username)).toEqual(['bob', 'cleo']);
    expect(selectNotice(actor.getSnapshot())).toEqual({ tone: 'success', text: '@cleo was added.' });
    expect(emitted).toContainEqual({ type: 'organisation.memberAdded' });

    add.mockRejectedValueOnce(httpError(404, 'No Kinora account has this e-mail or handle.'));
    actor.send({ type: 'organisation.addMember', member: 'nobody@example.com' });
    await flush();
    expect(selectAddError(actor.getSnapshot())).toBe('No Kinora account has this e-mail or handle.');

    add.mockRejectedValueOnce(httpError(409, 'This person is already a member.'));
    actor.send({ type: 'organisation.addMember', member: '@cleo' });
    await flush();
    expect(selectAddError(actor.getSnapshot())).toBe('This person is already a member.');
    expect(selectOrganisationBusy(actor.getSnapshot())).toBeNull();
    expect(selectMembers(actor.getSnapshot())).toHaveLength(2);
  });

  it('removes a member; a failed removal keeps them and says why', async () => {
    const { actor } = start();
    await flush();
    remove.mockRejectedValueOnce(httpError(403, "Only the organisation's owner can do this."));
    actor.send({ type: 'organisation.removeMember', memberId: 'bob-sub' });
    await flush();
    expect(selectNotice(actor.getSnapshot())).toEqual({ tone: 'error', text: "Only the organisation's owner can do this." });
    expect(selectMembers(actor.getSnapshot())).toHaveLength(1);

    actor.send({ type: 'organisation.removeMember', memberId: 'bob-sub' });
    expect(selectOrganisationBusy(actor.getSnapshot())).toBe('removing');
    await flush();
    expect(remove).toHaveBeenLastCalledWith('bob-sub');
    expect(selectMembers(actor.getSnapshot())).toEqual([]);
    expect(selectNotice(actor.getSnapshot())).toEqual({ tone: 'success', text: '@bob was removed.' });
  });

  it('transfers credits and takes the organisation the answer carries', async () => {
    const { actor, emitted } = start();
    await flush();
    actor.send({ type: 'organisation.transfer', memberId: 'bob-sub', credits: 120 });
    await flush();
    expect(transfer).toHaveBeenCalledWith({ memberId: 'bob-sub', credits: 120, key: expect.any(String) });
    expect(selectBalance(actor.getSnapshot())).toBe(380);
    expect(selectMembers(actor.getSnapshot())[0]?.credits_received).toBe(120);
    expect(selectNotice(actor.getSnapshot())).toEqual({ tone: 'success', text: '120 credits transferred to @bob.' });
    expect(emitted).toContainEqual({ type: 'organisation.transferred', memberId: 'bob-sub' });
  });

  it('keeps the Idempotency-Key of a failed transfer for its retry, and makes a new one for the next transfer', async () => {
    const { actor } = start();
    await flush();
    transfer.mockRejectedValueOnce(httpError(402, 'The organisation has 500 credits; it cannot transfer 600.'));
    actor.send({ type: 'organisation.transfer', memberId: 'bob-sub', credits: 600 });
    await flush();
    expect(selectTransferError(actor.getSnapshot())).toBe('The organisation has 500 credits; it cannot transfer 600.');
    const firstKey = transfer.mock.calls[0]![0].key;

    transfer.mockRejectedValueOnce(new Error('Network Error'));
    actor.send({ type: 'organisation.transferRetry' });
    await flush();
    expect(transfer.mock.calls[1]![0]).toEqual({ memberId: 'bob-sub', credits: 600, key: firstKey });

    // Sending the same transfer again is the same attempt: same key.
    transfer.mockRejectedValueOnce(httpError(403, "Only the organisation's owner can do this."));
    actor.send({ type: 'organisation.transfer', memberId: 'bob-sub', credits: 600 });
    await flush();
    expect(transfer.mock.calls[2]![0].key).toBe(firstKey);
    expect(selectTransferError(actor.getSnapshot())).toBe("Only the organisation's owner can do this.");

    // Another amount is another attempt.
    actor.send({ type: 'organisation.transfer', memberId: 'bob-sub', credits: 50 });
    await flush();
    const secondKey = transfer.mock.calls[3]![0].key;
    expect(secondKey).not.toBe(firstKey);
    expect(selectTransferError(actor.getSnapshot())).toBeNull();

    // After a success, the next transfer of the same amount is a new attempt too.
    actor.send({ type: 'organisation.transfer', memberId: 'bob-sub', credits: 50 });
    await flush();
    expect(transfer.mock.calls[4]![0].key).not.toBe(secondKey);
  });

  it('refuses a transfer of no credits or to someone not in the organisation', async () => {
    const { actor } = start();
    await flush();
    actor.send({ type: 'organisation.transfer', memberId: 'bob-sub', credits: 0 });
    actor.send({ type: 'organisation.transfer', memberId: 'bob-sub', credits: 1.5 });
    actor.send({ type: 'organisation.transfer', memberId: 'stranger', credits: 5 });
    actor.send({ type: 'organisation.transferRetry' });
    await flush();
    expect(transfer).not.toHaveBeenCalled();
  });

  it('leaves for the checkout URL when a pack is bought', async () => {
    const { actor, emitted } = start();
    await flush();
    actor.send({ type: 'organisation.buy', packId: 'pack-500' });
    expect(selectOrganisationBusy(actor.getSnapshot())).toBe('purchasing');
    await flush();
    expect(purchase).toHaveBeenCalledWith('pack-500');
    expect(emitted).toContainEqual({ type: 'organisation.leave', url: '/local/checkout/cs_1' });
    expect(selectOrganisationBusy(actor.getSnapshot())).toBe('leaving');
  });

  it('says buying failed with the message of SPEC §8', async () => {
    purchase.mockRejectedValueOnce(httpError(500, 'The card provider is not answering.'));
    const { actor, emitted } = start();
    await flush();
    actor.send({ type: 'organisation.buy', packId: 'pack-100' });
    await flush();
    expect(selectNotice(actor.getSnapshot())).toEqual({
      tone: 'error',
      title: MESSAGES.buyCreditsFailed.title,
      text: MESSAGES.buyCreditsFailed.message,
    });
    expect(emitted.some((event) => event.type === 'organisation.leave')).toBe(false);
    expect(selectOrganisationBusy(actor.getSnapshot())).toBeNull();
  });

  it('does nothing an owner does for a member', async () => {
    load.mockResolvedValue(customer({ role: 'member', balance: null, owner: { id: 'owner-sub', preferred_username: 'olga' } }));
    const { actor } = start();
    await flush();
    actor.send({ type: 'organisation.buy', packId: 'pack-100' });
    actor.send({ type: 'organisation.addMember', member: '@cleo' });
    actor.send({ type: 'organisation.removeMember', memberId: 'bob-sub' });
    actor.send({ type: 'organisation.transfer', memberId: 'bob-sub', credits: 5 });
    await flush();
    expect([purchase, add, remove, transfer].map((mock) => mock.mock.calls.length)).toEqual([0, 0, 0, 0]);
  });

  it('reads the checkout the person came back from, says what became of it, then loads the organisation', async () => {
    const { actor, emitted } = start({ outcome: 'success', sessionId: 'cs_7' });
    expect(selectOrganisationStatus(actor.getSnapshot())).toBe('checkingCheckout');
    expect(load).not.toHaveBeenCalled();
    await flush();
    expect(checkoutStatus).toHaveBeenCalledWith('cs_7');
    expect(emitted).toContainEqual({ type: 'organisation.checkoutHandled' });
    expect(load).toHaveBeenCalledTimes(1);
    expect(selectOrganisationStatus(actor.getSnapshot())).toBe('ready');
    expect(selectNotice(actor.getSnapshot())).toEqual({ tone: 'success', text: 'Payment received: 500 credits were added to the organisation.' });
  });

  it('says a cancelled checkout charged nothing, and still loads when the checkout cannot be read', async () => {
    checkoutStatus.mockImplementationOnce(async (sessionId) => ({
      session_id: sessionId,
      status: 'cancelled',
      pack_id: 'pack-100',
      credits: 100,
      amount_cents: 1000,
      currency: 'USD',
      customer_id: 'org-1',
      payment_id: null,
    }));
    const cancelled = start({ outcome: 'cancelled', sessionId: 'cs_8' }).actor;
    await flush();
    expect(selectNotice(cancelled.getSnapshot())).toEqual({ tone: 'info', text: 'Payment cancelled: nothing was charged.' });

    checkoutStatus.mockRejectedValueOnce(httpError(404, 'This checkout does not exist.'));
    const { actor, emitted } = start({ outcome: 'success', sessionId: 'nope' });
    await flush();
    expect(selectOrganisationStatus(actor.getSnapshot())).toBe('ready');
    expect(selectNotice(actor.getSnapshot())?.tone).toBe('error');
    expect(emitted).toContainEqual({ type: 'organisation.checkoutHandled' });
  });
});
