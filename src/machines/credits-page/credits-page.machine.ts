import { assign, emit, enqueueActions, fromPromise, raise, setup } from 'xstate';
import { AUTO_REFILL_OFF, findAutoRefillOption, findCreditPack } from '@/config/billing';
import { CREDITS_TEXTS } from '@/config/credits-texts';
import { MESSAGES, type Notice } from '@/config/messages';
import { getCredits } from '@/services/credits';
import { getCheckoutStatus, getCreditHistory, getReceiptUrl, openCustomerPortal, purchaseCredits, setAutoRefill } from '@/services/payments';
import type { UserCredits } from '@/services/schemas/credits';
import type { AutoRefill, Checkout, CheckoutStatus, CreditHistory, ProviderUrl } from '@/services/schemas/payments';
import { accountLink } from '@/machines/account-link/account-link';
import type {
  CheckoutOutcome,
  CheckoutResult,
  CheckoutReturn,
  CreditsPageContext,
  CreditsPageEmitted,
  CreditsPageEvent,
  CreditsPageInput,
} from '@/machines/credits-page/credits-page.types';

export type {
  BillingAccount,
  CheckoutOutcome,
  CheckoutResult,
  CheckoutReturn,
  CreditsPageContext,
  CreditsPageEmitted,
  CreditsPageEvent,
  CreditsPageInput,
} from '@/machines/credits-page/credits-page.types';

/** How often, and how far apart, a checkout still `open` after the person came back is checked again. */
export const CHECKOUT_RECHECKS = 4;
export const CHECKOUT_RECHECK_DELAY_MS = 1_500;
/**
 * After the browser was sent to the checkout, portal or a receipt, the buttons stay busy this
 * long (a second click would only open a second checkout); then the page is usable again, e.g.
 * when the person comes back with the browser's Back button and the page was kept in memory.
 */
export const LEAVE_GRACE_MS = 8_000;

/** Reads the checkout return from a query string; null when it is not one. */
export function checkoutReturnFrom(search: string): CheckoutReturn | null {
  const params = new URLSearchParams(search);
  const outcome = params.get('checkout');
  const sessionId = params.get('session_id')?.trim() ?? '';
  if ((outcome !== 'success' && outcome !== 'cancelled') || sessionId === '') return null;
  return { outcome, sessionId };
}

const OUTCOMES: Record<CheckoutStatus['status'], CheckoutOutcome> = {
  paid: 'paid',
  cancelled: 'cancelled',
  declined: 'declined',
  expired: 'expired',
  open: 'pending',
};

const errorNotice = (message: string): Notice => ({ title: CREDITS_TEXTS.errorTitle, message });

/**
 * The credits page (/credits, issue 7), five lifecycles side by side: the billing account (saved
 * card and auto-refill: loading → ready ⇄ saving | failed), the checkout the person came back
 * from (checking ⇄ waiting while still open → shown), the credit history (loading → ready ⇄
 * loadingMore | failed, SPEC §8 toast on failure), leaving the app for the card provider (buy a
 * pack, billing portal, a receipt: idle → calling → leaving) and the cost comparison's number.
 * The balance belongs to the session's credits actor: the page asks it for a refresh through its
 * `account` actor.
 */
export const creditsPageMachine = setup({
  types: {
    context: {} as CreditsPageContext,
    events: {} as CreditsPageEvent,
    emitted: {} as CreditsPageEmitted,
    input: {} as CreditsPageInput,
  },
  actors: {
    loadAccount: fromPromise<UserCredits>(() => getCredits()),
    saveAutoRefill: fromPromise<AutoRefill, { option: string }>(({ input }) => setAutoRefill(input.option)),
    checkCheckout: fromPromise<CheckoutStatus, { sessionId: string }>(({ input }) => getCheckoutStatus(input.sessionId)),
    loadHistory: fromPromise<CreditHistory, { nextStartKeys: string | null }>(({ input }) =>
      getCreditHistory(input.nextStartKeys),
    ),
    buyPack: fromPromise<Checkout, { packId: string }>(({ input }) => purchaseCredits(input.packId)),
    openPortal: fromPromise<ProviderUrl>(() => openCustomerPortal()),
    fetchReceiptUrl: fromPromise<ProviderUrl, { paymentId: string }>(({ input }) => getReceiptUrl(input.paymentId)),
    /** The session's credits actor, for the balance refresh (the page reads no account events). */
    account: accountLink(() => []),
  },
  guards: {
    hasCheckoutReturn: ({ context }) => context.checkoutReturn !== null,
    isPaid: (_, params: { status: CheckoutStatus }) => params.status.status === 'paid',
    canCheckAgain: ({ context }, params: { status: CheckoutStatus }) =>
      params.status.status === 'open' && context.checkoutChecks < CHECKOUT_RECHECKS,
    // "off" always works; any other option needs the card a purchase saved (the server says so too).
    canSetAutoRefill: ({ context }, params: { option: string }) =>
      findAutoRefillOption(params.option) !== undefined &&
      params.option !== context.account?.autoRefill &&
      (params.option === AUTO_REFILL_OFF || Boolean(context.account?.card)),
    isKnownPack: (_, params: { packId: string }) => findCreditPack(params.packId) !== undefined,
    hasMoreHistory: ({ context }) => context.nextStartKeys !== null,
    historyMoreFailed: ({ context }) => context.historyMoreFailed && context.nextStartKeys !== null,
  },
  actions: {
    storeAccount: assign((_, params: { credits: UserCredits }) => ({
      account: { autoRefill: params.credits.auto_refill ?? AUTO_REFILL_OFF, card: params.credits.card ?? null },
    })),
    storeAutoRefill: assign((_, params: { autoRefill: AutoRefill }) => ({
      account: { autoRefill: params.autoRefill.auto_refill, card: params.autoRefill.card },
      pendingAutoRefill: null,
    })),
    setPendingAutoRefill: assign((_, params: { option: string }) => ({ pendingAutoRefill: params.option })),
    clearPendingAutoRefill: assign({ pendingAutoRefill: null }),
    countCheckoutCheck: assign(({ context }) => ({ checkoutChecks: context.checkoutChecks + 1 })),
    storeCheckoutResult: assign((_, params: { status: CheckoutStatus }) => ({
      checkoutResult: { outcome: OUTCOMES[params.status.status], credits: params.status.credits },
    })),
    storeCheckoutUnknown: assign({ checkoutResult: { outcome: 'unknown', credits: 0 } satisfies CheckoutResult }),
    clearCheckoutResult: assign({ checkoutResult: null }),
    storeFirstPage: assign((_, params: { page: CreditHistory }) => ({
      history: params.page.items,
      nextStartKeys: params.page.next_start_keys,
      historyMoreFailed: false,
    })),
    appendPage: assign(({ context }, params: { page: CreditHistory }) => {
      // A row already shown (the ledger grew between two pages) is not listed twice.
      const shown = new Set(context.history.map((entry) => entry.id));
      return {
        history: [...context.history, ...params.page.items.filter((entry) => !shown.has(entry.id))],
        nextStartKeys: params.page.next_start_keys,
        historyMoreFailed: false,
      };
    }),
    markHistoryMoreFailed: assign({ historyMoreFailed: true }),
    setBuyingPack: assign((_, params: { packId: string }) => ({ buyingPackId: params.packId })),
    setReceiptPayment: assign((_, params: { paymentId: string }) => ({ receiptPaymentId: params.paymentId })),
    clearExit: assign({ buyingPackId: null, receiptPaymentId: null }),
    setComparison: assign((_, params: { credits: string }) => ({ comparisonInput: params.credits })),
    leave: emit((_, params: { url: string }) => ({ type: 'creditsPage.leave' as const, url: params.url })),
    notify: emit((_, params: { tone: 'success' | 'error'; notice: Notice }) => ({
      type: 'creditsPage.notify' as const,
      tone: params.tone,
      title: params.notice.title,
      message: params.notice.message,
    })),
    /** A payment or an auto-refill change: the session's balance is fetched again. */
    reportCreditsChanged: enqueueActions(({ enqueue }) => {
      enqueue.emit({ type: 'creditsPage.creditsChanged' });
      enqueue.sendTo('account', { type: 'credits.refresh' });
    }),
    reportReturnHandled: emit({ type: 'creditsPage.returnHandled' } as const),
    reloadHistory: raise({ type: 'history.reload' } as const),
    reloadAccount: raise({ type: 'account.reload' } as const),
  },
  delays: {
    checkoutRecheckDelay: CHECKOUT_RECHECK_DELAY_MS,
    leaveGrace: LEAVE_GRACE_MS,
  },
}).createMachine({
  id: 'creditsPage',
  type: 'parallel',
  context: ({ input }) => ({
    checkoutReturn: input.checkoutReturn,
    checkoutResult: null,
    checkoutChecks: 0,
    account: null,
    pendingAutoRefill: null,
    history: [],
    nextStartKeys: null,
    historyMoreFailed: false,
    buyingPackId: null,
    receiptPaymentId: null,
    comparisonInput: null,
    session: input.session ?? null,
  }),
  invoke: { id: 'account', src: 'account', input: ({ context }) => ({ session: context.session }) },
  on: {
    'comparison.set': { actions: { type: 'setComparison', params: ({ event }) => ({ credits: event.credits }) } },
  },
  states: {
    account: {
      initial: 'loading',
      states: {
        loading: {
          invoke: {
            src: 'loadAccount',
            onDone: { target: 'ready', actions: { type: 'storeAccount', params: ({ event }) => ({ credits: event.output }) } },
            // SPEC §8 "Other calls fail": no toast; the section says so and offers a retry.
            onError: 'failed',
          },
          on: { 'account.reload': { target: 'loading', reenter: true } },
        },
        ready: {
          on: {
            'autoRefill.set': {
              guard: { type: 'canSetAutoRefill', params: ({ event }) => ({ option: event.option }) },
              target: 'saving',
              actions: { type: 'setPendingAutoRefill', params: ({ event }) => ({ option: event.option }) },
            },
            'account.reload': 'loading',
          },
        },
        saving: {
          invoke: {
            src: 'saveAutoRefill',
            input: ({ context }) => ({ option: context.pendingAutoRefill ?? AUTO_REFILL_OFF }),
            onDone: {
              target: 'ready',
              actions: [
                { type: 'storeAutoRefill', params: ({ event }) => ({ autoRefill: event.output }) },
                { type: 'notify', params: { tone: 'success', notice: MESSAGES.autoRefillSet } },
                'reportCreditsChanged',
              ],
            },
            onError: {
              target: 'ready',
              actions: ['clearPendingAutoRefill', { type: 'notify', params: { tone: 'error', notice: MESSAGES.autoRefillFailed } }],
            },
          },
        },
        failed: {
          on: { 'account.retry': 'loading', 'account.reload': 'loading' },
        },
      },
    },
    checkout: {
      initial: 'deciding',
      states: {
        deciding: {
          always: [{ guard: 'hasCheckoutReturn', target: 'checking' }, { target: 'idle' }],
        },
        checking: {
          invoke: {
            src: 'checkCheckout',
            input: ({ context }) => ({ sessionId: context.checkoutReturn?.sessionId ?? '' }),
            onDone: [
              {
                guard: { type: 'isPaid', params: ({ event }) => ({ status: event.output }) },
                target: 'shown',
                actions: [
                  { type: 'storeCheckoutResult', params: ({ event }) => ({ status: event.output }) },
                  'reportCreditsChanged',
                  'reloadHistory',
                  // Paying saved the card: auto-refill can be chosen now.
                  'reloadAccount',
                  'reportReturnHandled',
                ],
              },
              {
                guard: { type: 'canCheckAgain', params: ({ event }) => ({ status: event.output }) },
                target: 'waiting',
                actions: 'countCheckoutCheck',
              },
              {
                target: 'shown',
                actions: [
                  { type: 'storeCheckoutResult', params: ({ event }) => ({ status: event.output }) },
                  'reportReturnHandled',
                ],
              },
            ],
            onError: { target: 'shown', actions: ['storeCheckoutUnknown', 'reportReturnHandled'] },
          },
        },
        waiting: {
          after: { checkoutRecheckDelay: 'checking' },
        },
        shown: {
          on: { 'checkout.dismiss': { target: 'idle', actions: 'clearCheckoutResult' } },
        },
        idle: {},
      },
    },
    history: {
      initial: 'loading',
      states: {
        loading: {
          invoke: {
            src: 'loadHistory',
            input: () => ({ nextStartKeys: null }),
            onDone: { target: 'ready', actions: { type: 'storeFirstPage', params: ({ event }) => ({ page: event.output }) } },
            onError: {
              target: 'failed',
              actions: { type: 'notify', params: { tone: 'error', notice: MESSAGES.creditHistoryFailed } },
            },
          },
          on: { 'history.reload': { target: 'loading', reenter: true } },
        },
        ready: {
          on: {
            'history.more': { guard: 'hasMoreHistory', target: 'loadingMore' },
            'history.retry': { guard: 'historyMoreFailed', target: 'loadingMore' },
            'history.reload': 'loading',
          },
        },
        loadingMore: {
          invoke: {
            src: 'loadHistory',
            input: ({ context }) => ({ nextStartKeys: context.nextStartKeys }),
            onDone: { target: 'ready', actions: { type: 'appendPage', params: ({ event }) => ({ page: event.output }) } },
            onError: {
              target: 'ready',
              actions: ['markHistoryMoreFailed', { type: 'notify', params: { tone: 'error', notice: MESSAGES.creditHistoryFailed } }],
            },
          },
          // A newer first page replaces the running "Load more", so a stale page never lands.
          on: { 'history.reload': 'loading' },
        },
        failed: {
          on: { 'history.retry': 'loading', 'history.reload': 'loading' },
        },
      },
    },
    exit: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'pack.buy': {
              guard: { type: 'isKnownPack', params: ({ event }) => ({ packId: event.packId }) },
              target: 'purchasing',
              actions: { type: 'setBuyingPack', params: ({ event }) => ({ packId: event.packId }) },
            },
            'portal.open': 'openingPortal',
            'receipt.open': {
              target: 'openingReceipt',
              actions: { type: 'setReceiptPayment', params: ({ event }) => ({ paymentId: event.paymentId }) },
            },
          },
        },
        purchasing: {
          invoke: {
            src: 'buyPack',
            input: ({ context }) => ({ packId: context.buyingPackId ?? '' }),
            onDone: { target: 'leaving', actions: { type: 'leave', params: ({ event }) => ({ url: event.output.checkout_url }) } },
            onError: {
              target: 'idle',
              actions: ['clearExit', { type: 'notify', params: { tone: 'error', notice: MESSAGES.buyCreditsFailed } }],
            },
          },
        },
        openingPortal: {
          invoke: {
            src: 'openPortal',
            onDone: { target: 'leaving', actions: { type: 'leave', params: ({ event }) => ({ url: event.output.url }) } },
            onError: {
              target: 'idle',
              actions: { type: 'notify', params: { tone: 'error', notice: errorNotice(CREDITS_TEXTS.portalFailed) } },
            },
          },
        },
        openingReceipt: {
          invoke: {
            src: 'fetchReceiptUrl',
            input: ({ context }) => ({ paymentId: context.receiptPaymentId ?? '' }),
            onDone: { target: 'leaving', actions: { type: 'leave', params: ({ event }) => ({ url: event.output.url }) } },
            onError: {
              target: 'idle',
              actions: ['clearExit', { type: 'notify', params: { tone: 'error', notice: errorNotice(CREDITS_TEXTS.receiptFailed) } }],
            },
          },
        },
        leaving: {
          after: { leaveGrace: { target: 'idle', actions: 'clearExit' } },
        },
      },
    },
  },
});
