import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STARTING_CREDIT_GRANT } from '../../../server/src/config.ts';
import { userCreditsSchema } from '../../../src/services/schemas/credits.ts';
import { autoRefillSchema, checkoutStatusSchema, providerUrlSchema } from '../../../src/services/schemas/payments.ts';
import { balanceOf, postForm } from '../helpers/media.ts';
import {
  DECLINE_CARD,
  SUCCESS_CARD,
  buyPack,
  openPage,
  purchaseRows,
  sendWebhook,
  startPurchase,
  submitForm,
} from '../helpers/payments.ts';
import { callApi, signUpUser, startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

async function checkoutStatus(token: string, sessionId: string) {
  const answer = await callApi(server, `credits/checkout/${sessionId}`, { token });
  expect(answer.status).toBe(200);
  return checkoutStatusSchema.parse(answer.body?.data);
}

async function credits(token: string) {
  const answer = await callApi(server, 'credits/get', { token });
  expect(answer.status).toBe(200);
  return userCreditsSchema.parse(answer.body?.data);
}

async function paymentsOf(sub: string) {
  const { rows } = await server.db.query<{ id: string; source: string; credits: number; amount_cents: number; card_last4: string | null }>(
    'SELECT id, source, credits, amount_cents, card_last4 FROM payments WHERE user_sub = $1 ORDER BY created_at',
    [sub],
  );
  return rows;
}

describe('GET credits/purchase/{packId}', () => {
  it('opens a checkout whose page shows the pack, its price and the test cards', async () => {
    const user = await signUpUser(server, 'buyer');
    const checkout = await startPurchase(server, user.accessToken, 'pack-500');
    expect(checkout.checkout_url).toBe(`/local/checkout/${checkout.session_id}`);

    const page = await openPage(server, checkout.checkout_url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.html).toContain('Creator: 500 credits');
    expect(page.html).toContain('$45.00');
    expect(page.html).toContain('Pay $45.00');
    expect(page.html).toContain('4242 4242 4242 4242');
    expect(page.html).toContain('4000 0000 0000 0002');
    // Labelled inputs.
    for (const name of ['number', 'expiry', 'cvc', 'name']) {
      expect(page.html).toContain(`<label for="card-${name}">`);
      expect(page.html).toContain(`id="card-${name}" name="${name}"`);
    }
    const status = await checkoutStatus(user.accessToken, checkout.session_id);
    expect(status).toMatchObject({ status: 'open', pack_id: 'pack-500', credits: 500, amount_cents: 4500, payment_id: null });
  });

  it('answers 404 for a pack that does not exist, and 401 signed out', async () => {
    const user = await signUpUser(server, 'nopack');
    const answer = await callApi(server, 'credits/purchase/pack-7', { token: user.accessToken });
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ detail: 'This credit pack does not exist.' });
    expect((await callApi(server, 'credits/purchase/pack-100')).status).toBe(401);
  });

  it("keeps a session to its owner: another user's session is 404", async () => {
    const owner = await signUpUser(server, 'owner');
    const other = await signUpUser(server, 'other');
    const checkout = await startPurchase(server, owner.accessToken);
    const answer = await callApi(server, `credits/checkout/${checkout.session_id}`, { token: other.accessToken });
    expect(answer.status).toBe(404);
    expect((await callApi(server, 'credits/checkout/cs_nothing', { token: owner.accessToken })).status).toBe(404);
  });
});

describe('the local checkout page', () => {
  it('pays with the success card: credits exactly once, saves the card, redirects back to /credits', async () => {
    const user = await signUpUser(server, 'payer');
    expect((await credits(user.accessToken)).card).toBeNull();
    const checkout = await startPurchase(server, user.accessToken);

    const paid = await submitForm(server, checkout.checkout_url, SUCCESS_CARD);
    expect(paid.status).toBe(303);
    expect(paid.location).toBe(`/credits?checkout=success&session_id=${checkout.session_id}`);

    expect(await purchaseRows(server, user.sub)).toEqual([{ amount: 100, reason: 'Bought 100 credits (Starter)' }]);
    expect(await balanceOf(server, user.sub)).toBe(STARTING_CREDIT_GRANT + 100);
    const payments = await paymentsOf(user.sub);
    expect(payments).toMatchObject([{ source: 'checkout', credits: 100, amount_cents: 1000, card_last4: '4242' }]);
    const status = await checkoutStatus(user.accessToken, checkout.session_id);
    expect(status).toMatchObject({ status: 'paid', credits: 100, payment_id: payments[0]?.id, customer_id: null });
    expect(await credits(user.accessToken)).toEqual({ credit: STARTING_CREDIT_GRANT + 100, auto_refill: 'off', card: { brand: 'Visa', last4: '4242' } });

    // Pressing Pay again lands on the same success; opening the page says it is paid. Nothing more is credited.
    const again = await submitForm(server, checkout.checkout_url, SUCCESS_CARD);
    expect(again.status).toBe(303);
    expect(again.location).toBe(`/credits?checkout=success&session_id=${checkout.session_id}`);
    const page = await openPage(server, checkout.checkout_url);
    expect(page.status).toBe(200);
    expect(page.html).toContain('This checkout has already been paid');
    expect(page.html).toContain(`href="/credits?checkout=success&amp;session_id=${checkout.session_id}"`);
    expect(await purchaseRows(server, user.sub)).toHaveLength(1);
  });

  it('declines the decline card: no credit, the session stays open, the page shows the error (402)', async () => {
    const user = await signUpUser(server, 'declined');
    const checkout = await startPurchase(server, user.accessToken);
    const declined = await submitForm(server, checkout.checkout_url, DECLINE_CARD);
    expect(declined.status).toBe(402);
    expect(declined.html).toContain('Your card was declined. Try another card.');
    expect(declined.html).toContain('role="alert"');
    expect(await purchaseRows(server, user.sub)).toEqual([]);
    expect((await checkoutStatus(user.accessToken, checkout.session_id)).status).toBe('open');
    expect((await credits(user.accessToken)).card).toBeNull();

    // Another card then pays.
    const paid = await submitForm(server, checkout.checkout_url, SUCCESS_CARD);
    expect(paid.status).toBe(303);
    expect(await purchaseRows(server, user.sub)).toHaveLength(1);
  });

  it('shows field errors for a bad card number, expiry and CVC (400), escaping what was typed', async () => {
    const user = await signUpUser(server, 'typo');
    const checkout = await startPurchase(server, user.accessToken);
    const answer = await submitForm(server, checkout.checkout_url, {
      ...SUCCESS_CARD,
      number: '4242 4242 4242 4241',
      expiry: '13/30',
      cvc: '1',
      name: '<script>alert(1)</script>',
    });
    expect(answer.status).toBe(400);
    expect(answer.html).toContain('Enter a valid card number (13 to 19 digits).');
    expect(answer.html).toContain('Enter the expiry date as MM/YY.');
    expect(answer.html).toContain('Enter the 3 or 4 digit security code (CVC).');
    expect(answer.html).toContain('aria-invalid="true"');
    expect(answer.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(answer.html).not.toContain('<script');
    const expired = await submitForm(server, checkout.checkout_url, { ...SUCCESS_CARD, expiry: '01/20' });
    expect(expired.status).toBe(400);
    expect(expired.html).toContain('This card has expired.');
    expect(await purchaseRows(server, user.sub)).toEqual([]);
    expect((await checkoutStatus(user.accessToken, checkout.session_id)).status).toBe('open');
  });

  it('cancels: the session is cancelled, nothing is credited, the app is told', async () => {
    const user = await signUpUser(server, 'canceller');
    const checkout = await startPurchase(server, user.accessToken);
    const cancelled = await submitForm(server, checkout.checkout_url, { action: 'cancel' });
    expect(cancelled.status).toBe(303);
    expect(cancelled.location).toBe(`/credits?checkout=cancelled&session_id=${checkout.session_id}`);
    expect((await checkoutStatus(user.accessToken, checkout.session_id)).status).toBe('cancelled');

    const payLate = await submitForm(server, checkout.checkout_url, SUCCESS_CARD);
    expect(payLate.status).toBe(409);
    expect(payLate.html).toContain('This checkout was cancelled. Nothing was charged.');
    const webhook = await sendWebhook(server, { type: 'checkout.completed', session_id: checkout.session_id });
    expect(webhook.status).toBe(200);
    expect(webhook.body.data).toMatchObject({ credited: false, status: 'cancelled' });
    expect(await purchaseRows(server, user.sub)).toEqual([]);
    expect(await paymentsOf(user.sub)).toEqual([]);
  });

  it('cancels the open checkouts of a deleted account: paying one afterwards credits nothing and keeps no card', async () => {
    const user = await signUpUser(server, 'leaver');
    const checkout = await startPurchase(server, user.accessToken);
    expect((await callApi(server, 'users', { method: 'DELETE', token: user.accessToken })).status).toBe(200);

    const payLate = await submitForm(server, checkout.checkout_url, SUCCESS_CARD);
    expect(payLate.status).toBe(409);
    const webhook = await sendWebhook(server, { type: 'checkout.completed', session_id: checkout.session_id });
    expect(webhook.body.data).toMatchObject({ credited: false, status: 'cancelled' });
    expect(await purchaseRows(server, user.sub)).toEqual([]);
    expect(await paymentsOf(user.sub)).toEqual([]);
    const { rows } = await server.db.query('SELECT 1 FROM payment_methods WHERE user_sub = $1', [user.sub]);
    expect(rows).toEqual([]);
  });

  it('refuses an expired session and shows a page for an unknown one', async () => {
    const user = await signUpUser(server, 'late');
    const checkout = await startPurchase(server, user.accessToken);
    await server.db.query("UPDATE checkout_sessions SET expires_at = now() - interval '1 minute' WHERE id = $1", [checkout.session_id]);
    const page = await openPage(server, checkout.checkout_url);
    expect(page.html).toContain('This checkout has expired');
    expect((await submitForm(server, checkout.checkout_url, SUCCESS_CARD)).status).toBe(409);
    expect((await checkoutStatus(user.accessToken, checkout.session_id)).status).toBe('expired');
    expect(await purchaseRows(server, user.sub)).toEqual([]);

    const unknown = await openPage(server, '/local/checkout/cs_unknown');
    expect(unknown.status).toBe(404);
    expect(unknown.html).toContain('Checkout not found');
  });

  it("sends CSP headers that allow the form to post to this origin and run no script", async () => {
    const user = await signUpUser(server, 'csp');
    const checkout = await startPurchase(server, user.accessToken);
    const page = await openPage(server, checkout.checkout_url);
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("form-action 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(page.html).not.toMatch(/<script/i);
    expect(page.html).toContain(`<form method="post" action="/local/checkout/${checkout.session_id}"`);
    expect(page.headers.get('cache-control')).toBe('no-store');
  });
});

describe('confirmation exactly once', () => {
  it('credits once when the webhook arrives twice', async () => {
    const user = await signUpUser(server, 'hook');
    const checkout = await startPurchase(server, user.accessToken);
    const first = await sendWebhook(server, { type: 'checkout.completed', session_id: checkout.session_id });
    const second = await sendWebhook(server, { type: 'checkout.completed', session_id: checkout.session_id });
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ credited: true, status: 'paid' });
    expect(second.status).toBe(200);
    expect(second.body.data).toMatchObject({ credited: false, status: 'paid' });
    expect(await purchaseRows(server, user.sub)).toEqual([{ amount: 100, reason: 'Bought 100 credits (Starter)' }]);
    expect(await paymentsOf(user.sub)).toMatchObject([{ source: 'webhook', card_last4: null }]);
  });

  it('credits once when the webhook and the checkout page confirm, in either order or at once', async () => {
    const user = await signUpUser(server, 'both');
    const first = await startPurchase(server, user.accessToken);
    expect((await submitForm(server, first.checkout_url, SUCCESS_CARD)).status).toBe(303);
    expect((await sendWebhook(server, { type: 'checkout.completed', session_id: first.session_id })).body.data?.credited).toBe(false);

    const second = await startPurchase(server, user.accessToken);
    expect((await sendWebhook(server, { type: 'checkout.completed', session_id: second.session_id })).body.data?.credited).toBe(true);
    const afterHook = await submitForm(server, second.checkout_url, SUCCESS_CARD);
    expect(afterHook.status).toBe(303);
    expect(afterHook.location).toContain('checkout=success');

    const third = await startPurchase(server, user.accessToken);
    const [racedPage, ...racedHooks] = await Promise.all([
      submitForm(server, third.checkout_url, SUCCESS_CARD),
      sendWebhook(server, { type: 'checkout.completed', session_id: third.session_id }),
      sendWebhook(server, { type: 'checkout.completed', session_id: third.session_id }),
    ]);
    expect(racedPage.status).toBe(303);
    expect(racedPage.location).toBe(`/credits?checkout=success&session_id=${third.session_id}`);
    expect(racedHooks.filter((answer) => answer.body.data?.credited).length).toBeLessThanOrEqual(1);

    expect(await purchaseRows(server, user.sub)).toHaveLength(3);
    expect(await paymentsOf(user.sub)).toHaveLength(3);
    expect(await balanceOf(server, user.sub)).toBe(STARTING_CREDIT_GRANT + 300);
  });

  it('refuses a webhook with a wrong signature (400) and a session it does not know (404)', async () => {
    const user = await signUpUser(server, 'forge');
    const checkout = await startPurchase(server, user.accessToken);
    const forged = await sendWebhook(server, { type: 'checkout.completed', session_id: checkout.session_id }, 'ab'.repeat(32));
    expect(forged.status).toBe(400);
    expect(forged.body).toEqual({ detail: 'The Kinora-Signature header is missing or wrong.' });
    const missing = await sendWebhook(server, { type: 'checkout.completed', session_id: checkout.session_id }, '');
    expect(missing.status).toBe(400);
    expect(await purchaseRows(server, user.sub)).toEqual([]);
    expect((await checkoutStatus(user.accessToken, checkout.session_id)).status).toBe('open');
    const unknown = await sendWebhook(server, { type: 'checkout.completed', session_id: 'cs_unknown' });
    expect(unknown.status).toBe(404);
  });
});

describe('organisation purchases', () => {
  it("credit the organisation's ledger (not the buyer's) and go back to the organisation page", async () => {
    const owner = await signUpUser(server, 'orgowner');
    await callApi(server, 'credits/get', { token: owner.accessToken });
    const customerId = `org-${owner.sub.slice(0, 8)}`;
    await server.db.query('INSERT INTO customers (id, owner_sub, name) VALUES ($1, $2, $3)', [customerId, owner.sub, 'Acme']);
    const { createCheckoutSession } = await import('../../../server/src/payments/checkout.ts');
    const created = await createCheckoutSession(server.db, { userSub: owner.sub, packId: 'pack-500', customerId });
    if (!created) throw new Error('no checkout');

    const paid = await submitForm(server, created.checkoutUrl, SUCCESS_CARD);
    expect(paid.status).toBe(303);
    expect(paid.location).toBe(`/organisation/${customerId}?checkout=success&session_id=${created.session.id}`);
    await sendWebhook(server, { type: 'checkout.completed', session_id: created.session.id });

    const { rows } = await server.db.query<{ amount: number; kind: string; payment_id: string }>(
      'SELECT amount, kind, payment_id FROM customer_ledger WHERE customer_id = $1',
      [customerId],
    );
    const payments = await paymentsOf(owner.sub);
    expect(rows).toEqual([{ amount: 500, kind: 'purchase', payment_id: payments[0]?.id }]);
    expect(await purchaseRows(server, owner.sub)).toEqual([]);
    expect(await balanceOf(server, owner.sub)).toBe(STARTING_CREDIT_GRANT);
    expect((await checkoutStatus(owner.accessToken, created.session.id)).customer_id).toBe(customerId);

    const cancelSession = await createCheckoutSession(server.db, { userSub: owner.sub, packId: 'pack-100', customerId });
    const cancelled = await submitForm(server, cancelSession?.checkoutUrl ?? '', { action: 'cancel' });
    expect(cancelled.location).toBe(`/organisation/${customerId}?checkout=cancelled&session_id=${cancelSession?.session.id}`);
  });
});

describe('auto-refill', () => {
  it('needs a saved card (409), refuses unknown options (400), and off always works', async () => {
    const user = await signUpUser(server, 'nocard');
    const refused = await callApi(server, 'credits/auto-refill/below-20-buy-100', { token: user.accessToken });
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ detail: 'Add a card first: buy a credit pack once and the card is kept for auto-refill.' });
    const unknown = await callApi(server, 'credits/auto-refill/always', { token: user.accessToken });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({ detail: 'Unknown auto-refill option.' });
    const off = await callApi(server, 'credits/auto-refill/off', { token: user.accessToken });
    expect(off.status).toBe(200);
    expect(autoRefillSchema.parse(off.body?.data)).toEqual({ auto_refill: 'off', threshold: null, pack_id: null, card: null });
  });

  it('never keeps a card for the shared guest account, so its auto-refill stays unavailable', async () => {
    const guest = await server.emulator.createUser({ username: 'guest', email: 'guest@kinora.local', password: 'kinora-guest' });
    await buyPack(server, guest.accessToken);
    expect(await purchaseRows(server, guest.sub)).toHaveLength(1);
    expect((await credits(guest.accessToken)).card).toBeNull();
    expect((await callApi(server, 'credits/auto-refill/below-20-buy-100', { token: guest.accessToken })).status).toBe(409);
  });

  it('buys the pack once when a debit takes the balance under the threshold', async () => {
    const user = await signUpUser(server, 'refill');
    await buyPack(server, user.accessToken);
    const set = await callApi(server, 'credits/auto-refill/below-20-buy-100', { token: user.accessToken });
    expect(set.status).toBe(200);
    expect(autoRefillSchema.parse(set.body?.data)).toEqual({
      auto_refill: 'below-20-buy-100',
      threshold: 20,
      pack_id: 'pack-100',
      card: { brand: 'Visa', last4: '4242' },
    });
    expect((await credits(user.accessToken)).auto_refill).toBe('below-20-buy-100');

    // A debit that stays at the threshold buys nothing.
    const { appendLedgerEntry } = await import('../../../server/src/db/credit-ledger.ts');
    const start = await balanceOf(server, user.sub);
    await server.db.transaction((tx) => appendLedgerEntry(tx, { userSub: user.sub, amount: -(start - 20), kind: 'debit', reason: 'spent' }));
    expect(await balanceOf(server, user.sub)).toBe(20);
    expect(await purchaseRows(server, user.sub)).toHaveLength(1);

    // A real generation (4 credits) takes it to 16: one auto-refill of 100.
    const job = await postForm(server, 'image/text-2-image', { prompt: 'a lighthouse in fog' }, { token: user.accessToken });
    expect(job.status).toBe(200);
    expect(await balanceOf(server, user.sub)).toBe(116);
    expect(await purchaseRows(server, user.sub)).toEqual([
      { amount: 100, reason: 'Bought 100 credits (Starter)' },
      { amount: 100, reason: 'Auto-refill: bought 100 credits (Starter)' },
    ]);
    const payments = await paymentsOf(user.sub);
    expect(payments.map((payment) => payment.source)).toEqual(['checkout', 'auto-refill']);
    expect(payments[1]).toMatchObject({ credits: 100, amount_cents: 1000, card_last4: '4242' });

    // Above the threshold again: the next debit buys nothing.
    await server.db.transaction((tx) => appendLedgerEntry(tx, { userSub: user.sub, amount: -10, kind: 'debit', reason: 'spent' }));
    expect(await purchaseRows(server, user.sub)).toHaveLength(2);

    // Turned off, a debit under the threshold buys nothing.
    expect((await callApi(server, 'credits/auto-refill/off', { token: user.accessToken })).status).toBe(200);
    await server.db.transaction((tx) => appendLedgerEntry(tx, { userSub: user.sub, amount: -100, kind: 'debit', reason: 'spent' }));
    expect(await balanceOf(server, user.sub)).toBe(6);
    expect(await purchaseRows(server, user.sub)).toHaveLength(2);
  });
});

describe('billing portal and receipts', () => {
  it('opens a portal listing the real payments and card, whose receipt links open the receipts', async () => {
    const user = await signUpUser(server, 'portal');
    const checkout = await buyPack(server, user.accessToken, 'pack-500');
    const [payment] = await paymentsOf(user.sub);
    expect(payment).toBeDefined();

    for (const provider of ['local', 'stripe']) {
      const answer = await callApi(server, `${provider}/customer-portal`, { method: 'POST', token: user.accessToken, json: {} });
      expect(answer.status).toBe(200);
      const { url } = providerUrlSchema.parse(answer.body?.data);
      expect(url).toMatch(/^\/local\/billing-portal\/p\.[\w.-]+$/);
      const page = await openPage(server, url);
      expect(page.status).toBe(200);
      expect(page.html).toContain('Visa ending in 4242');
      expect(page.html).toContain('Creator');
      expect(page.html).toContain('$45.00');
      expect(page.html).toContain('>500<');
      // The real ledger rows, with the balance after each.
      expect(page.html).toContain('Credit activity');
      expect(page.html).toContain(`Balance: ${STARTING_CREDIT_GRANT + 500} credits`);
      expect(page.html).toMatch(/Bought 500 credits \(Creator\)<\/td>\n<td>\+500<\/td>\n<td>600<\/td>/);
      expect(page.html).toMatch(/Welcome credits<\/td>\n<td>\+100<\/td>\n<td>100<\/td>/);
      expect(page.html).toContain('href="/credits"');
      expect(page.html).not.toMatch(/<script/i);
      const receiptLink = /href="(\/local\/receipts\/[^"]+)"/.exec(page.html)?.[1];
      expect(receiptLink).toBeDefined();
      const receipt = await openPage(server, receiptLink ?? '');
      expect(receipt.status).toBe(200);
      expect(receipt.html).toContain(payment?.id ?? 'missing');
      expect(receipt.html).toContain('Visa ending in 4242');
      expect(receipt.html).toContain('Paid');
    }
    expect((await checkoutStatus(user.accessToken, checkout.session_id)).payment_id).toBe(payment?.id);
    expect((await callApi(server, 'local/customer-portal', { method: 'POST' })).status).toBe(401);
  });

  it('removes the card from the portal, which also turns auto-refill off', async () => {
    const user = await signUpUser(server, 'remover');
    await buyPack(server, user.accessToken);
    expect((await callApi(server, 'credits/auto-refill/below-50-buy-500', { token: user.accessToken })).status).toBe(200);
    const { url } = providerUrlSchema.parse((await callApi(server, 'local/customer-portal', { method: 'POST', token: user.accessToken })).body?.data);
    const portal = await openPage(server, url);
    expect(portal.html).toContain('Under 50 credits, buy 500');
    expect(portal.html).toContain(`<form method="post" action="${url}/remove-card">`);

    const removed = await submitForm(server, `${url}/remove-card`, {});
    expect(removed.status).toBe(303);
    expect(removed.location).toBe(`${url}?removed=1`);
    expect(await credits(user.accessToken)).toMatchObject({ auto_refill: 'off', card: null });
    const after = await openPage(server, removed.location ?? '');
    expect(after.html).toContain('Your card was removed and auto-refill is now off.');
    expect(after.html).toContain('No card is saved.');
  });

  it('gives receipt URLs for own payments only; tampered links are 404', async () => {
    const buyer = await signUpUser(server, 'receipt');
    const stranger = await signUpUser(server, 'stranger');
    await buyPack(server, buyer.accessToken);
    const [payment] = await paymentsOf(buyer.sub);
    const own = await callApi(server, 'local/get-receipt-url', { method: 'POST', token: buyer.accessToken, json: { payment_id: payment?.id } });
    expect(own.status).toBe(200);
    const { url } = providerUrlSchema.parse(own.body?.data);
    const receipt = await openPage(server, url);
    expect(receipt.status).toBe(200);
    expect(receipt.html).toContain('Receipt number');
    expect(receipt.html).toContain(payment?.id ?? 'missing');
    expect(receipt.html).toContain('Starter');
    expect(receipt.html).toContain('$10.00');

    const theirs = await callApi(server, 'stripe/get-receipt-url', { method: 'POST', token: stranger.accessToken, json: { payment_id: payment?.id } });
    expect(theirs.status).toBe(404);
    expect(theirs.body).toEqual({ detail: 'This payment does not exist.' });
    expect((await callApi(server, 'local/get-receipt-url', { method: 'POST', token: buyer.accessToken, json: {} })).status).toBe(400);

    const tampered = await openPage(server, `${url.slice(0, -3)}abc`);
    expect(tampered.status).toBe(404);
    expect(tampered.html).toContain('This link is invalid or has expired.');
    // A portal link is not a receipt link.
    const portal = providerUrlSchema.parse((await callApi(server, 'local/customer-portal', { method: 'POST', token: buyer.accessToken })).body?.data);
    const token = portal.url.split('/').at(-1) ?? '';
    expect((await openPage(server, `/local/receipts/${token}`)).status).toBe(404);
  });
});
