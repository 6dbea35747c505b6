import { TEST_CARDS, findAutoRefillOption, findCreditPack, formatPrice } from '../../../src/config/billing.ts';
import { ROUTES } from '../../../src/config/routes.ts';
import type { SavedCard } from '../../../src/services/schemas/credits.ts';
import type { CreditHistoryEntry } from '../../../src/services/schemas/payments.ts';
import type { CheckoutSessionRow, PaymentRow } from '../db/payments.ts';
import { escapeMarkup as e } from '../lib/escape-markup.ts';
import type { CardFieldErrors, CardFormValues } from './card-form.ts';

/**
 * The local card provider's pages: plain server-rendered HTML with no script at all, so the
 * server's CSP (scripts from this origin only, forms post to this origin) holds. Every value is
 * escaped; styles are inline (the CSP allows them) and the layout is one column on a phone.
 */

const STYLE = `
:root { color-scheme: light; }
* { box-sizing: border-box; }
body { margin: 0; font-family: Inter, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1a1b1e; background: #f8f9fa; line-height: 1.5; }
header { background: #fff; border-bottom: 1px solid #e9ecef; padding: .75rem 1rem; }
header .brand { font-weight: 700; font-size: 1.15rem; color: #6741d9; text-decoration: none; }
header .badge { margin-left: .5rem; font-size: .75rem; color: #495057; background: #f1f3f5; border-radius: 999px; padding: .1rem .5rem; }
main { max-width: 44rem; margin: 1.5rem auto; padding: 0 1rem; }
main.narrow { max-width: 30rem; }
.card { background: #fff; border: 1px solid #e9ecef; border-radius: .75rem; padding: 1.25rem; margin-bottom: 1rem; }
h1 { font-size: 1.5rem; margin: 0 0 .75rem; }
h2 { font-size: 1.15rem; margin: 0 0 .5rem; }
a { color: #6741d9; }
.muted { color: #5f666d; font-size: .9rem; }
.summary { display: flex; justify-content: space-between; gap: 1rem; align-items: baseline; }
.price { font-size: 1.5rem; font-weight: 700; }
label { display: block; font-weight: 600; margin: .75rem 0 .25rem; }
input[type=text] { width: 100%; font: inherit; padding: .55rem .7rem; border: 1px solid #ced4da; border-radius: .5rem; }
input[aria-invalid=true] { border-color: #e03131; }
input:focus, button:focus, a:focus { outline: 3px solid #b197fc; outline-offset: 2px; }
.row { display: flex; gap: .75rem; }
.row > div { flex: 1; min-width: 0; }
.field-error { color: #c92a2a; font-size: .9rem; margin: .25rem 0 0; }
.alert { border: 1px solid #ffc9c9; background: #fff5f5; color: #c92a2a; border-radius: .5rem; padding: .75rem; margin-bottom: 1rem; }
.notice { border: 1px solid #b2f2bb; background: #ebfbee; color: #2b8a3e; border-radius: .5rem; padding: .75rem; margin-bottom: 1rem; }
.actions { display: flex; gap: .75rem; flex-wrap: wrap; margin-top: 1.25rem; }
button, .button { font: inherit; font-weight: 600; border-radius: .5rem; padding: .6rem 1.1rem; cursor: pointer; border: 1px solid transparent; text-decoration: none; display: inline-block; }
.primary { background: #7048e8; color: #fff; }
.secondary { background: #fff; color: #495057; border-color: #ced4da; }
.danger { background: #fff; color: #c92a2a; border-color: #ffa8a8; }
.table-wrap { overflow-x: auto; }
table { border-collapse: collapse; width: 100%; font-size: .95rem; }
th, td { text-align: left; padding: .5rem .6rem; border-bottom: 1px solid #e9ecef; white-space: nowrap; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: .4rem 1rem; margin: 0; }
dt { color: #5f666d; }
dd { margin: 0; font-weight: 600; }
@media (max-width: 30rem) { .row { flex-direction: column; gap: 0; } .summary { flex-direction: column; gap: 0; } }
`;

function layout(title: string, body: string, narrow = false): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${e(title)} · Kinora</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<style>${STYLE}</style>
</head>
<body>
<header><a class="brand" href="${e(ROUTES.credits)}">Kinora</a><span class="badge">Test payments</span></header>
<main${narrow ? ' class="narrow"' : ''}>
${body}
</main>
</body>
</html>
`;
}

const DATE_FORMAT = new Intl.DateTimeFormat('en-GB', {
  dateStyle: 'medium',
  timeStyle: 'short',
  timeZone: 'UTC',
});
export const formatDate = (date: Date): string => `${DATE_FORMAT.format(date)} UTC`;

const packLabel = (packId: string): string => findCreditPack(packId)?.label ?? packId;
const cardText = (brand: string | null, last4: string | null): string =>
  brand && last4 ? `${brand} ending in ${last4}` : 'Not recorded';

// ---- checkout ----------------------------------------------------------------------------------

export interface CheckoutFormState {
  values?: Partial<CardFormValues>;
  errors?: CardFieldErrors;
  /** A message about the whole form (a declined card). */
  formError?: string;
}

function field(
  name: keyof CardFormValues,
  label: string,
  state: CheckoutFormState,
  attributes: string,
  hint?: string,
): string {
  const id = `card-${name}`;
  const error = state.errors?.[name];
  const describedBy = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  const value = name === 'cvc' ? '' : (state.values?.[name] ?? '');
  return `<div>
<label for="${id}">${e(label)}</label>
<input type="text" id="${id}" name="${name}" value="${e(value)}" ${attributes}${error ? ' aria-invalid="true"' : ''}${
    describedBy ? ` aria-describedby="${describedBy}"` : ''
  } required>
${hint ? `<p class="muted" id="${id}-hint">${hint}</p>` : ''}${error ? `<p class="field-error" id="${id}-error">${e(error)}</p>` : ''}
</div>`;
}

export function renderCheckoutPage(session: CheckoutSessionRow, state: CheckoutFormState = {}): string {
  const price = formatPrice(session.amount_cents, session.currency);
  const label = packLabel(session.pack_id);
  const action = `/local/checkout/${encodeURIComponent(session.id)}`;
  const hint = `Test mode: <strong>${e(TEST_CARDS.success)}</strong> pays, <strong>${e(TEST_CARDS.decline)}</strong> is declined. Use any future expiry date and any 3 digits as CVC.`;
  const problems = state.errors && Object.keys(state.errors).length > 0;
  const body = `<h1>Checkout</h1>
<section class="card" aria-labelledby="order-heading">
<h2 id="order-heading">Your order</h2>
<div class="summary"><span>${e(`${label}: ${session.credits} credits`)}${
    session.customer_id ? ' <span class="muted">for your organisation</span>' : ''
  }</span><span class="price">${e(price)}</span></div>
</section>
<section class="card" aria-labelledby="card-heading">
<h2 id="card-heading">Pay by card</h2>
${state.formError ? `<div class="alert" role="alert">${e(state.formError)}</div>` : ''}${
    problems ? '<div class="alert" role="alert">Please correct the fields marked below.</div>' : ''
  }
<form method="post" action="${e(action)}" novalidate>
${field('number', 'Card number', state, 'inputmode="numeric" autocomplete="cc-number" placeholder="4242 4242 4242 4242" maxlength="23"', hint)}
<div class="row">
${field('expiry', 'Expiry date (MM/YY)', state, 'inputmode="numeric" autocomplete="cc-exp" placeholder="12/30" maxlength="7"')}
${field('cvc', 'Security code (CVC)', state, 'inputmode="numeric" autocomplete="cc-csc" placeholder="123" maxlength="4"')}
</div>
${field('name', 'Name on the card', state, 'autocomplete="cc-name" maxlength="100"')}
<div class="actions">
<button type="submit" class="primary" name="action" value="pay">${e(`Pay ${price}`)}</button>
<button type="submit" class="secondary" name="action" value="cancel" formnovalidate>Cancel</button>
</div>
</form>
</section>
<p class="muted">This is Kinora's local test checkout: no real card is charged. Only the card's brand and last four digits are kept, for auto-refill.</p>`;
  return layout('Checkout', body, true);
}

const CLOSED_TEXTS: Record<string, { title: string; text: string }> = {
  paid: { title: 'This checkout is paid', text: 'This checkout has already been paid. The credits are in the account.' },
  cancelled: { title: 'This checkout was cancelled', text: 'This checkout was cancelled. Nothing was charged.' },
  expired: { title: 'This checkout has expired', text: 'This checkout has expired. Nothing was charged; start a new purchase.' },
  declined: { title: 'This checkout was declined', text: 'The card was declined. Nothing was charged.' },
};

/** A paid, cancelled or expired checkout: what became of it and a link back. */
export function renderCheckoutClosedPage(session: CheckoutSessionRow, backUrl: string): string {
  const texts = CLOSED_TEXTS[session.status] ?? { title: 'This checkout is closed', text: 'This checkout is closed.' };
  const body = `<section class="card">
<h1>${e(texts.title)}</h1>
<p>${e(texts.text)}</p>
<p class="muted">${e(`${packLabel(session.pack_id)}: ${session.credits} credits, ${formatPrice(session.amount_cents, session.currency)}`)}</p>
<div class="actions"><a class="button primary" href="${e(backUrl)}">Back to Kinora</a></div>
</section>`;
  return layout(texts.title, body, true);
}

/** An unknown checkout, or a portal / receipt link that is wrong or has expired. */
export function renderMissingPage(title: string, text: string): string {
  const body = `<section class="card">
<h1>${e(title)}</h1>
<p>${e(text)}</p>
<div class="actions"><a class="button primary" href="${e(ROUTES.credits)}">Back to Kinora</a></div>
</section>`;
  return layout(title, body, true);
}

// ---- billing portal ----------------------------------------------------------------------------

export interface PortalPayment {
  payment: PaymentRow;
  receiptUrl: string;
}

export interface PortalPageData {
  removeCardAction: string;
  card: SavedCard | null;
  autoRefill: string;
  payments: readonly PortalPayment[];
  /** The balance and the latest ledger rows (credits/history's first page). */
  balance: number;
  ledger: readonly CreditHistoryEntry[];
  notice?: string;
}

const KIND_TEXTS: Record<string, string> = {
  debit: 'Spent',
  refund: 'Refund',
  purchase: 'Bought',
  coupon: 'Coupon',
  transfer: 'Transfer',
  grant: 'Welcome credits',
  reset: 'Weekly reset',
};

const signed = (amount: number): string => (amount > 0 ? `+${amount}` : String(amount));

function ledgerSection(data: PortalPageData): string {
  if (data.ledger.length === 0) return '<p>No credit activity yet.</p>';
  const rows = data.ledger
    .map(
      (entry) => `<tr>
<td>${e(formatDate(new Date(entry.created_at)))}</td>
<td>${e(KIND_TEXTS[entry.kind] ?? entry.kind)}</td>
<td>${e(entry.reason)}</td>
<td>${e(signed(entry.amount))}</td>
<td>${e(String(entry.balance_after))}</td>
</tr>`,
    )
    .join('\n');
  return `<div class="table-wrap"><table>
<caption class="muted" style="text-align:left">The latest ${data.ledger.length} changes to your credits, newest first</caption>
<thead><tr><th scope="col">Date</th><th scope="col">Kind</th><th scope="col">What</th><th scope="col">Credits</th><th scope="col">Balance after</th></tr></thead>
<tbody>
${rows}
</tbody>
</table></div>`;
}

const SOURCE_TEXTS: Record<string, string> = { checkout: 'Checkout', webhook: 'Checkout', 'auto-refill': 'Auto-refill' };

export function renderPortalPage(data: PortalPageData): string {
  const option = findAutoRefillOption(data.autoRefill);
  const cardSection = data.card
    ? `<p>${e(cardText(data.card.brand, data.card.last4))}</p>
<form method="post" action="${e(data.removeCardAction)}">
<p class="muted">Removing the card also turns auto-refill off.</p>
<button type="submit" class="danger">Remove card</button>
</form>`
    : '<p>No card is saved. Buying a credit pack keeps its card for auto-refill.</p>';
  const rows = data.payments
    .map(
      ({ payment, receiptUrl }) => `<tr>
<td>${e(formatDate(payment.created_at))}</td>
<td>${e(packLabel(payment.pack_id))}${payment.customer_id ? ' <span class="muted">(organisation)</span>' : ''}</td>
<td>${e(String(payment.credits))}</td>
<td>${e(formatPrice(payment.amount_cents, payment.currency))}</td>
<td>${e(SOURCE_TEXTS[payment.source] ?? payment.source)}</td>
<td>${e(payment.status === 'paid' ? 'Paid' : 'Refunded')}</td>
<td><a href="${e(receiptUrl)}">Receipt<span class="visually-hidden" style="position:absolute;left:-10000px"> for ${e(payment.id)}</span></a></td>
</tr>`,
    )
    .join('\n');
  const paymentsSection =
    data.payments.length === 0
      ? '<p>No payments yet.</p>'
      : `<div class="table-wrap"><table>
<caption class="muted" style="text-align:left">Every payment, newest first</caption>
<thead><tr><th scope="col">Date</th><th scope="col">Pack</th><th scope="col">Credits</th><th scope="col">Amount</th><th scope="col">How</th><th scope="col">Status</th><th scope="col">Receipt</th></tr></thead>
<tbody>
${rows}
</tbody>
</table></div>`;
  const body = `<h1>Billing</h1>
${data.notice ? `<div class="notice" role="status">${e(data.notice)}</div>` : ''}
<section class="card" aria-labelledby="card-heading">
<h2 id="card-heading">Saved card</h2>
${cardSection}
</section>
<section class="card" aria-labelledby="refill-heading">
<h2 id="refill-heading">Auto-refill</h2>
<p>${e(option?.label ?? data.autoRefill)}</p>
<p class="muted">Change it on Kinora's credits page.</p>
</section>
<section class="card" aria-labelledby="payments-heading">
<h2 id="payments-heading">Payments</h2>
${paymentsSection}
</section>
<section class="card" aria-labelledby="ledger-heading">
<h2 id="ledger-heading">Credit activity</h2>
<p>${e(`Balance: ${data.balance} credits`)}</p>
${ledgerSection(data)}
</section>
<div class="actions"><a class="button primary" href="${e(ROUTES.credits)}">Back to Kinora</a></div>`;
  return layout('Billing', body);
}

// ---- receipt -----------------------------------------------------------------------------------

export function renderReceiptPage(payment: PaymentRow, backUrl: string): string {
  const body = `<section class="card" aria-labelledby="receipt-heading">
<h1 id="receipt-heading">Receipt</h1>
<dl>
<dt>Receipt number</dt><dd>${e(payment.id)}</dd>
<dt>Date</dt><dd>${e(formatDate(payment.created_at))}</dd>
<dt>Pack</dt><dd>${e(packLabel(payment.pack_id))}</dd>
<dt>Credits</dt><dd>${e(String(payment.credits))}</dd>
<dt>Amount</dt><dd>${e(formatPrice(payment.amount_cents, payment.currency))}</dd>
<dt>Card</dt><dd>${e(cardText(payment.card_brand, payment.card_last4))}</dd>
<dt>Status</dt><dd>${e(payment.status === 'paid' ? 'Paid' : 'Refunded')}</dd>
${payment.source === 'auto-refill' ? '<dt>How</dt><dd>Auto-refill</dd>' : ''}
</dl>
<div class="actions"><a class="button primary" href="${e(backUrl)}">Back to Kinora</a></div>
</section>`;
  return layout(`Receipt ${payment.id}`, body, true);
}
