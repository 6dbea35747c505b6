/** The stand-in's hosted pages: Checkout (pay or cancel), the billing portal and a receipt. Plain HTML forms. */

type Json = Record<string, unknown>;

const escape = (text: unknown): string =>
  String(text ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

const money = (cents: unknown, currency: unknown): string =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: String(currency ?? 'usd').toUpperCase() }).format(Number(cents) / 100);

const page = (title: string, body: string): string => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#1a1f36}
label{display:block;margin:.75rem 0 .25rem}input{width:100%;padding:.5rem;font-size:1rem;box-sizing:border-box}
button{margin-top:1rem;padding:.6rem 1.2rem;font-size:1rem}.note{color:#697386;font-size:.9rem}.error{color:#c0123c}</style>
</head><body><p class="note">Stripe stand-in (tests/stripe): no real payment is made.</p>${body}</body></html>`;

export function renderHostedCheckout(session: Json | null, error?: string): string {
  if (!session) return page('Checkout not found', '<h1>Checkout not found</h1>');
  const items = (session._payment_intent_data as { line_items?: unknown[] } | undefined)?.line_items ?? [];
  if (session.status !== 'open') {
    return page('Checkout closed', `<h1>This checkout is ${escape(session.status)}</h1><p><a href="${escape(session.success_url)}">Back</a></p>`);
  }
  return page(
    'Pay',
    `<h1>Pay ${escape(money(session.amount_total, session.currency))}</h1>
<p>${items.map(escape).join('<br>')}</p>
${error ? `<p class="error" role="alert">${escape(error)}</p>` : ''}
<form method="post">
<label for="number">Card number</label><input id="number" name="number" value="4242 4242 4242 4242" autocomplete="off">
<label for="expiry">Expiry</label><input id="expiry" name="expiry" value="12 / 34">
<label for="cvc">CVC</label><input id="cvc" name="cvc" value="123">
<p class="note">4242 4242 4242 4242 pays; 4000 0000 0000 0002 is declined.</p>
<button type="submit" name="action" value="pay">Pay</button>
<button type="submit" name="action" value="cancel">Cancel</button>
</form>`,
  );
}

export function renderPortal(session: Json | null, cards: Json[], charges: Json[]): string {
  if (!session) return page('Portal session not found', '<h1>Portal session not found</h1>');
  const cardRows = cards
    .map((card) => {
      const details = card.card as { brand: string; last4: string };
      return `<li>${escape(details.brand)} •••• ${escape(details.last4)}
<form method="post" action="/p/session/${escape(session.id)}/detach/${escape(card.id)}" style="display:inline"><button type="submit">Remove</button></form></li>`;
    })
    .join('');
  const chargeRows = charges
    .map((charge) => `<li>${escape(money(charge.amount, charge.currency))} — <a href="${escape(charge.receipt_url)}">receipt</a></li>`)
    .join('');
  return page(
    'Billing',
    `<h1>Billing</h1><h2>Payment methods</h2><ul>${cardRows || '<li>None</li>'}</ul>
<h2>Payments</h2><ul>${chargeRows || '<li>None</li>'}</ul>
${session.return_url ? `<p><a href="${escape(session.return_url)}">Return to Kinora</a></p>` : ''}`,
  );
}

export function renderReceipt(charge: Json | null): string {
  if (!charge) return page('Receipt not found', '<h1>Receipt not found</h1>');
  const card = (charge.payment_method_details as { card?: { brand: string; last4: string } } | undefined)?.card;
  return page(
    'Receipt',
    `<h1>Receipt</h1><p>Amount paid: ${escape(money(charge.amount, charge.currency))}</p>
<p>Paid with ${escape(card?.brand)} •••• ${escape(card?.last4)}</p><p class="note">${escape(charge.id)} · ${escape(charge.payment_intent)}</p>`,
  );
}
