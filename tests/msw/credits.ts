import { http, HttpResponse } from 'msw';
import { AUTO_REFILL_OFF, CREDIT_HISTORY_PAGE_SIZE, CURRENCY, findAutoRefillOption, findCreditPack } from '@/config/billing';
import type { SavedCard } from '@/services/schemas/credits';
import type { CheckoutStatus, CreditHistoryEntry } from '@/services/schemas/payments';
// Not imported from handlers.ts, which registers these handlers: its value would not exist yet.
import { fakeApi } from './handlers';
import { answer, API, detail, ledgerRow } from './data';

/**
 * A small stand-in for the credits and payment calls (issue 7 contract), enough for the credits
 * page: checkouts in memory (`payCheckout` / `cancelCheckout` do what the card provider's page
 * does), the saved card and auto-refill option, a ledger listed newest first 20 a page, and the
 * provider's portal and receipt links. The balance is `fakeApi.credits` (tests/msw/handlers.ts),
 * so the header follows a payment. Tests shape it through `fakeCredits`, make a call fail with
 * `fakeCredits.failing`, and read what was asked from `fakeCredits.calls`; it is reset after
 * every test (resetFakeApi).
 */

export type FakeCreditsCall = 'purchase' | 'checkout' | 'auto-refill' | 'history' | 'portal' | 'receipt' | 'get';

interface FakeCheckout {
  id: string;
  packId: string;
  status: CheckoutStatus['status'];
}

interface FakeCreditsState {
  autoRefill: string;
  card: SavedCard | null;
  /** Newest first, as credits/history answers. */
  ledger: CreditHistoryEntry[];
  checkouts: Map<string, FakeCheckout>;
  /** Calls that answer 500 while listed. */
  failing: Set<FakeCreditsCall>;
  /** What was asked, e.g. "GET credits/history?next_start_keys=20", in order. */
  calls: string[];
  nextId: number;
}

export const fakeCredits: FakeCreditsState = {
  autoRefill: AUTO_REFILL_OFF,
  card: null,
  ledger: [],
  checkouts: new Map(),
  failing: new Set(),
  calls: [],
  nextId: 1,
};

export function resetFakeCredits(): void {
  fakeCredits.autoRefill = AUTO_REFILL_OFF;
  fakeCredits.card = null;
  fakeCredits.ledger = [];
  fakeCredits.checkouts = new Map();
  fakeCredits.failing = new Set();
  fakeCredits.calls = [];
  fakeCredits.nextId = 1;
}

const createdAt = (n: number): string => new Date(Date.parse('2025-03-01T12:00:00Z') + n * 60_000).toISOString();

/** Appends a ledger row (newest first) and moves the balance; answers the row. */
export function addLedgerEntry(entry: Partial<CreditHistoryEntry> & { amount: number; reason: string }): CreditHistoryEntry {
  fakeApi.credits += entry.amount;
  const n = fakeCredits.nextId++;
  const row = ledgerRow(`ledger-${n}`, fakeApi.credits, createdAt(n), entry);
  fakeCredits.ledger.unshift(row);
  return row;
}

/** What the card provider's page does on "Pay": the checkout is paid, the credits land, the card is saved. */
export function payCheckout(sessionId: string): void {
  const checkout = fakeCredits.checkouts.get(sessionId);
  const pack = checkout && findCreditPack(checkout.packId);
  if (!checkout || !pack || checkout.status !== 'open') throw new Error(`payCheckout(${sessionId}): no open checkout`);
  checkout.status = 'paid';
  fakeCredits.card = { brand: 'Visa', last4: '4242' };
  addLedgerEntry({
    amount: pack.credits,
    kind: 'purchase',
    reason: `Bought ${pack.credits} credits (${pack.label})`,
    payment_id: `pay-${sessionId}`,
  });
}

/** What the card provider's page does on "Cancel". */
export function cancelCheckout(sessionId: string): void {
  const checkout = fakeCredits.checkouts.get(sessionId);
  if (!checkout) throw new Error(`cancelCheckout(${sessionId}): no checkout`);
  checkout.status = 'cancelled';
}

/** An open checkout of `packId`, as if the person had clicked Buy before leaving. */
export function openCheckout(packId = 'pack-100'): string {
  const id = `cs_${fakeCredits.nextId++}`;
  fakeCredits.checkouts.set(id, { id, packId, status: 'open' });
  return id;
}

const unauthorized = () => HttpResponse.json({ message: 'Unauthorized' }, { status: 401 });

/** Records the call; answers the failure to send instead, if any. */
function refuse(request: Request, call: FakeCreditsCall): Response | null {
  const url = new URL(request.url);
  fakeCredits.calls.push(`${request.method} ${url.pathname.replace(/^\/api\//, '')}${url.search}`);
  if (!request.headers.get('Authorization')) return unauthorized();
  if (fakeCredits.failing.has(call)) return detail(500, 'The payment provider is not answering.');
  return null;
}

const checkoutStatusOf = (checkout: FakeCheckout): CheckoutStatus => {
  const pack = findCreditPack(checkout.packId);
  return {
    session_id: checkout.id,
    status: checkout.status,
    pack_id: checkout.packId,
    credits: pack?.credits ?? 0,
    amount_cents: pack?.priceCents ?? 0,
    currency: CURRENCY,
    customer_id: null,
    payment_id: checkout.status === 'paid' ? `pay-${checkout.id}` : null,
  };
};

export const creditsHandlers = [
  // The session's balance read, with the saved card and auto-refill option the credits page shows.
  http.get(`${API}/credits/get`, ({ request }) => {
    fakeApi.calls.push('GET credits/get');
    const refused = refuse(request, 'get');
    if (refused) return refused;
    return answer({ credit: fakeApi.credits, auto_refill: fakeCredits.autoRefill, card: fakeCredits.card });
  }),
  http.get(`${API}/credits/purchase/:packId`, ({ request, params }) => {
    const refused = refuse(request, 'purchase');
    if (refused) return refused;
    const pack = findCreditPack(String(params.packId));
    if (!pack) return detail(404, 'This credit pack does not exist.');
    const id = openCheckout(pack.id);
    return answer({ session_id: id, checkout_url: `/local/checkout/${id}` });
  }),
  http.get(`${API}/credits/checkout/:sessionId`, ({ request, params }) => {
    const refused = refuse(request, 'checkout');
    if (refused) return refused;
    const checkout = fakeCredits.checkouts.get(String(params.sessionId));
    if (!checkout) return detail(404, 'This checkout does not exist.');
    return answer(checkoutStatusOf(checkout));
  }),
  http.get(`${API}/credits/auto-refill/:option`, ({ request, params }) => {
    const refused = refuse(request, 'auto-refill');
    if (refused) return refused;
    const option = findAutoRefillOption(String(params.option));
    if (!option) return detail(400, 'Unknown auto-refill option.');
    if (option.value !== AUTO_REFILL_OFF && !fakeCredits.card) {
      return detail(409, 'Add a card first: buy a credit pack once and the card is kept for auto-refill.');
    }
    fakeCredits.autoRefill = option.value;
    return answer({ auto_refill: option.value, threshold: option.threshold, pack_id: option.packId, card: fakeCredits.card });
  }),
  http.get(`${API}/credits/history`, ({ request }) => {
    const refused = refuse(request, 'history');
    if (refused) return refused;
    const start = Number(new URL(request.url).searchParams.get('next_start_keys') ?? '0');
    const items = fakeCredits.ledger.slice(start, start + CREDIT_HISTORY_PAGE_SIZE);
    const end = start + items.length;
    return answer({ items, next_start_keys: end < fakeCredits.ledger.length ? String(end) : null });
  }),
  http.post(`${API}/:provider/customer-portal`, ({ request }) => {
    const refused = refuse(request, 'portal');
    if (refused) return refused;
    return answer({ url: '/local/billing-portal/portal-token' });
  }),
  http.post(`${API}/:provider/get-receipt-url`, async ({ request }) => {
    const refused = refuse(request, 'receipt');
    if (refused) return refused;
    const { payment_id: paymentId } = (await request.json()) as { payment_id: string };
    if (!fakeCredits.ledger.some((entry) => entry.payment_id === paymentId)) return detail(404, 'This payment does not exist.');
    return answer({ url: `/local/receipts/${paymentId}` });
  }),
];
