import { assign, emit, fromPromise, setup } from 'xstate';
import type { SnapshotFrom } from 'xstate';
import { MESSAGES } from '@/config/messages';
import { ORGANISATION_TEXTS } from '@/config/organisation-texts';
import { newIdempotencyKey } from '@/lib/idempotency-key';
import { errorMessageOf, isApiError } from '@/services/api-error';
import { getCheckoutStatus } from '@/services/payments';
import {
  addCustomerMember,
  getCustomer,
  purchaseCustomerCredits,
  removeCustomerMember,
  transferCredits,
} from '@/services/customers';
import type { Checkout, CheckoutStatus } from '@/services/schemas/payments';
import type { Customer, CustomerMember, TransferResult } from '@/services/schemas/customers';

export type { Customer, CustomerMember, CustomerTransfer } from '@/services/schemas/customers';

/** What `?checkout=success|cancelled&session_id=` on the page's address said. */
export interface CheckoutReturn {
  outcome: 'success' | 'cancelled';
  sessionId: string;
}

export interface OrganisationInput {
  customerId: string;
  /** The checkout the person came back from, if the address carried one. */
  checkout: CheckoutReturn | null;
}

export type NoticeTone = 'success' | 'info' | 'error';

export interface OrganisationNotice {
  tone: NoticeTone;
  title?: string;
  text: string;
}

/** One transfer the owner asked for: its Idempotency-Key is made once and goes with every retry of it. */
export interface TransferAttempt {
  memberId: string;
  credits: number;
  key: string;
}

export interface OrganisationContext {
  customerId: string;
  checkout: CheckoutReturn | null;
  customer: Customer | null;
  loadError: string | null;
  notice: OrganisationNotice | null;
  /** Why the last add failed (shown under the add form). */
  addError: string | null;
  /** The member being removed now. */
  removingId: string | null;
  /** The transfer being made, or the last one that failed (kept for its retry). */
  transfer: TransferAttempt | null;
  transferError: string | null;
}

export type OrganisationEvent =
  | { type: 'organisation.retry' }
  | { type: 'organisation.reload' }
  | { type: 'organisation.addMember'; member: string }
  | { type: 'organisation.removeMember'; memberId: string }
  | { type: 'organisation.transfer'; memberId: string; credits: number }
  | { type: 'organisation.transferRetry' }
  | { type: 'organisation.transferCancel' }
  | { type: 'organisation.buy'; packId: string }
  | { type: 'organisation.dismissNotice' };

export type OrganisationEmitted =
  /** Send the browser to the card provider's checkout (the page does it: machines cannot leave the app). */
  | { type: 'organisation.leave'; url: string }
  /** The checkout the address named has been read: the page can clear its query. */
  | { type: 'organisation.checkoutHandled' }
  | { type: 'organisation.memberAdded' }
  | { type: 'organisation.transferred'; memberId: string };

const TEXTS = ORGANISATION_TEXTS;

const nameOf = (member: CustomerMember | undefined): string =>
  member ? (member.preferred_username ? `@${member.preferred_username}` : (member.email ?? member.key)) : '';

const findMember = (customer: Customer | null, memberId: string): CustomerMember | undefined =>
  customer?.members.find((member) => member.id === memberId || member.key === memberId);

/** The words for what became of a checkout. */
export function checkoutNotice(status: CheckoutStatus): OrganisationNotice {
  switch (status.status) {
    case 'paid':
      return { tone: 'success', text: TEXTS.checkout.paid(status.credits) };
    case 'cancelled':
      return { tone: 'info', text: TEXTS.checkout.cancelled };
    case 'declined':
      return { tone: 'error', text: TEXTS.checkout.declined };
    case 'expired':
      return { tone: 'info', text: TEXTS.checkout.expired };
    case 'open':
      return { tone: 'info', text: TEXTS.checkout.open };
  }
}

const isNotFound = (error: unknown): boolean => isApiError(error) && error.status === 404;

/**
 * One organisation (/organisation/:id). Coming back from a checkout it first reads the checkout's
 * outcome (GET credits/checkout/{id}), then loads the organisation (GET customers/{id}: ready |
 * notFound | failed). Ready, the owner adds and removes members, transfers credits (one
 * Idempotency-Key per attempt, reused by its retry) and buys a pack (the checkout is left to by the
 * page, on `organisation.leave`). One change at a time; every answer carries the organisation anew.
 */
export const organisationMachine = setup({
  types: {
    context: {} as OrganisationContext,
    events: {} as OrganisationEvent,
    input: {} as OrganisationInput,
    emitted: {} as OrganisationEmitted,
  },
  actors: {
    readCheckout: fromPromise<CheckoutStatus, { sessionId: string }>(({ input }) => getCheckoutStatus(input.sessionId)),
    loadOrganisation: fromPromise<Customer, { customerId: string }>(({ input }) => getCustomer(input.customerId)),
    addMember: fromPromise<Customer, { customerId: string; member: string }>(({ input }) =>
      addCustomerMember({ customer_id: input.customerId, member: input.member }),
    ),
    removeMember: fromPromise<Customer, { customerId: string; memberId: string }>(({ input }) =>
      removeCustomerMember(input.customerId, input.memberId),
    ),
    transferCredits: fromPromise<TransferResult, { customerId: string; attempt: TransferAttempt }>(({ input }) =>
      transferCredits(
        { customer_id: input.customerId, member_id: input.attempt.memberId, credits: input.attempt.credits },
        input.attempt.key,
      ),
    ),
    purchaseCredits: fromPromise<Checkout, { customerId: string; packId: string }>(({ input }) =>
      purchaseCustomerCredits({ customer_id: input.customerId, pack_id: input.packId }),
    ),
  },
  guards: {
    hasCheckout: ({ context }) => context.checkout !== null,
    isOwner: ({ context }) => context.customer?.role === 'owner',
    canAdd: ({ context, event }) =>
      context.customer?.role === 'owner' && event.type === 'organisation.addMember' && event.member.trim() !== '',
    canRemove: ({ context, event }) =>
      context.customer?.role === 'owner' && event.type === 'organisation.removeMember' && findMember(context.customer, event.memberId) !== undefined,
    canTransfer: ({ context, event }) =>
      context.customer?.role === 'owner' &&
      event.type === 'organisation.transfer' &&
      Number.isInteger(event.credits) &&
      event.credits >= 1 &&
      findMember(context.customer, event.memberId) !== undefined,
    hasFailedTransfer: ({ context }) => context.customer?.role === 'owner' && context.transfer !== null && context.transferError !== null,
  },
  actions: {
    setNotice: assign((_, params: { notice: OrganisationNotice | null }) => ({ notice: params.notice })),
    checkoutDone: assign({ checkout: null }),
    announceCheckoutHandled: emit({ type: 'organisation.checkoutHandled' as const }),
    storeCustomer: assign((_, params: { customer: Customer }) => ({ customer: params.customer, loadError: null })),
    setLoadError: assign((_, params: { message: string }) => ({ loadError: params.message })),
    clearAddError: assign({ addError: null }),
    setAddError: assign((_, params: { message: string }) => ({ addError: params.message })),
    announceMemberAdded: emit({ type: 'organisation.memberAdded' as const }),
    setRemoving: assign((_, params: { memberId: string | null }) => ({ removingId: params.memberId })),
    /** The same member and credits as a failed attempt is that attempt again: it keeps its key. */
    beginTransfer: assign(({ context }, params: { memberId: string; credits: number }) => {
      const previous = context.transfer;
      const same = previous !== null && previous.memberId === params.memberId && previous.credits === params.credits;
      return {
        transfer: same ? previous : { memberId: params.memberId, credits: params.credits, key: newIdempotencyKey() },
        transferError: null,
      };
    }),
    clearTransferError: assign({ transferError: null }),
    transferFailed: assign((_, params: { message: string }) => ({ transferError: params.message })),
    forgetTransfer: assign({ transfer: null, transferError: null }),
    announceTransferred: emit((_, params: { memberId: string }) => ({ type: 'organisation.transferred' as const, memberId: params.memberId })),
    leaveToCheckout: emit((_, params: { url: string }) => ({ type: 'organisation.leave' as const, url: params.url })),
  },
}).createMachine({
  id: 'organisation',
  context: ({ input }) => ({
    customerId: input.customerId,
    checkout: input.checkout,
    customer: null,
    loadError: null,
    notice: null,
    addError: null,
    removingId: null,
    transfer: null,
    transferError: null,
  }),
  initial: 'starting',
  on: { 'organisation.dismissNotice': { actions: { type: 'setNotice', params: { notice: null } } } },
  states: {
    starting: {
      always: [{ guard: 'hasCheckout', target: 'checkingCheckout' }, { target: 'loading' }],
    },
    checkingCheckout: {
      invoke: {
        src: 'readCheckout',
        input: ({ context }) => ({ sessionId: context.checkout?.sessionId ?? '' }),
        onDone: {
          target: 'loading',
          actions: [
            { type: 'setNotice', params: ({ event }) => ({ notice: checkoutNotice(event.output) }) },
            'checkoutDone',
            'announceCheckoutHandled',
          ],
        },
        onError: {
          target: 'loading',
          actions: [
            { type: 'setNotice', params: { notice: { tone: 'error', text: TEXTS.checkout.failed } } },
            'checkoutDone',
            'announceCheckoutHandled',
          ],
        },
      },
    },
    loading: {
      invoke: {
        src: 'loadOrganisation',
        input: ({ context }) => ({ customerId: context.customerId }),
        onDone: { target: 'ready', actions: { type: 'storeCustomer', params: ({ event }) => ({ customer: event.output }) } },
        onError: [
          { guard: ({ event }) => isNotFound(event.error), target: 'notFound' },
          { target: 'failed', actions: { type: 'setLoadError', params: ({ event }) => ({ message: errorMessageOf(event.error) }) } },
        ],
      },
    },
    notFound: {},
    failed: { on: { 'organisation.retry': 'loading' } },
    ready: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'organisation.reload': 'reloading',
            'organisation.addMember': { guard: 'canAdd', target: 'adding', actions: 'clearAddError' },
            'organisation.removeMember': {
              guard: 'canRemove',
              target: 'removing',
              actions: { type: 'setRemoving', params: ({ event }) => ({ memberId: event.memberId }) },
            },
            'organisation.transfer': {
              guard: 'canTransfer',
              target: 'transferring',
              actions: { type: 'beginTransfer', params: ({ event }) => ({ memberId: event.memberId, credits: event.credits }) },
            },
            'organisation.transferRetry': { guard: 'hasFailedTransfer', target: 'transferring', actions: 'clearTransferError' },
            'organisation.transferCancel': { actions: 'forgetTransfer' },
            'organisation.buy': { guard: 'isOwner', target: 'purchasing', actions: { type: 'setNotice', params: { notice: null } } },
          },
        },
        reloading: {
          invoke: {
            src: 'loadOrganisation',
            input: ({ context }) => ({ customerId: context.customerId }),
            onDone: { target: 'idle', actions: { type: 'storeCustomer', params: ({ event }) => ({ customer: event.output }) } },
            onError: {
              target: 'idle',
              actions: { type: 'setNotice', params: ({ event }) => ({ notice: { tone: 'error', text: errorMessageOf(event.error) } }) },
            },
          },
        },
        adding: {
          invoke: {
            src: 'addMember',
            input: ({ context, event }) => ({
              customerId: context.customerId,
              member: event.type === 'organisation.addMember' ? event.member.trim() : '',
            }),
            onDone: {
              target: 'idle',
              actions: [
                {
                  type: 'setNotice',
                  // Read before the new organisation replaces the old: the member it did not have.
                  params: ({ context, event }) => {
                    const added = event.output.members.find((member) => !findMember(context.customer, member.id));
                    return { notice: { tone: 'success', text: TEXTS.members.added(nameOf(added) || TEXTS.addMember.heading) } };
                  },
                },
                { type: 'storeCustomer', params: ({ event }) => ({ customer: event.output }) },
                'announceMemberAdded',
              ],
            },
            onError: { target: 'idle', actions: { type: 'setAddError', params: ({ event }) => ({ message: errorMessageOf(event.error) }) } },
          },
        },
        removing: {
          invoke: {
            src: 'removeMember',
            input: ({ context }) => ({ customerId: context.customerId, memberId: context.removingId ?? '' }),
            onDone: {
              target: 'idle',
              actions: [
                {
                  type: 'setNotice',
                  params: ({ context }) => ({
                    notice: { tone: 'success', text: TEXTS.members.removed(nameOf(findMember(context.customer, context.removingId ?? ''))) },
                  }),
                },
                { type: 'storeCustomer', params: ({ event }) => ({ customer: event.output }) },
                { type: 'setRemoving', params: { memberId: null } },
              ],
            },
            onError: {
              target: 'idle',
              actions: [
                { type: 'setNotice', params: ({ event }) => ({ notice: { tone: 'error', text: errorMessageOf(event.error) } }) },
                { type: 'setRemoving', params: { memberId: null } },
              ],
            },
          },
        },
        transferring: {
          invoke: {
            src: 'transferCredits',
            input: ({ context }) => ({ customerId: context.customerId, attempt: context.transfer! }),
            onDone: {
              target: 'idle',
              actions: [
                {
                  type: 'setNotice',
                  params: ({ context, event }) => ({
                    notice: {
                      tone: 'success',
                      text: TEXTS.transfer.done(event.output.transfer.credits, nameOf(findMember(context.customer, event.output.transfer.member_id))),
                    },
                  }),
                },
                // The answer carries the organisation as it is now: balance and credits received.
                { type: 'storeCustomer', params: ({ event }) => ({ customer: event.output.customer }) },
                { type: 'announceTransferred', params: ({ event }) => ({ memberId: event.output.transfer.member_id }) },
                'forgetTransfer',
              ],
            },
            onError: { target: 'idle', actions: { type: 'transferFailed', params: ({ event }) => ({ message: errorMessageOf(event.error) }) } },
          },
        },
        purchasing: {
          invoke: {
            src: 'purchaseCredits',
            input: ({ event, context }) => ({ customerId: context.customerId, packId: event.type === 'organisation.buy' ? event.packId : '' }),
            onDone: { target: 'leaving', actions: { type: 'leaveToCheckout', params: ({ event }) => ({ url: event.output.checkout_url }) } },
            onError: {
              target: 'idle',
              actions: { type: 'setNotice', params: { notice: { tone: 'error', title: MESSAGES.buyCreditsFailed.title, text: MESSAGES.buyCreditsFailed.message } } },
            },
          },
        },
        /** The browser is on its way to the checkout; coming back loads the page anew. */
        leaving: {},
      },
    },
  },
});

export type OrganisationSnapshot = SnapshotFrom<typeof organisationMachine>;
