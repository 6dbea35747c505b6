import { createHmac } from 'node:crypto';
import { checkoutSchema } from '../../../src/services/schemas/payments.ts';
import { callApi, type TestServer } from './server.ts';

/** A page of the local card provider, fetched as a browser would (redirects not followed). */
export interface PageAnswer {
  status: number;
  headers: Headers;
  html: string;
  location: string | null;
}

export async function openPage(server: Pick<TestServer, 'url'>, path: string): Promise<PageAnswer> {
  const response = await fetch(`${server.url}${path}`, { redirect: 'manual', headers: { Accept: 'text/html' } });
  return { status: response.status, headers: response.headers, html: await response.text(), location: response.headers.get('location') };
}

/** Submits a form of a provider page (application/x-www-form-urlencoded), as a browser does. */
export async function submitForm(server: Pick<TestServer, 'url'>, path: string, fields: Record<string, string>): Promise<PageAnswer> {
  const response = await fetch(`${server.url}${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'text/html' },
    body: new URLSearchParams(fields).toString(),
  });
  return { status: response.status, headers: response.headers, html: await response.text(), location: response.headers.get('location') };
}

export const SUCCESS_CARD = { number: '4242 4242 4242 4242', expiry: '12/39', cvc: '123', name: 'Ana Lee', action: 'pay' };
export const DECLINE_CARD = { ...SUCCESS_CARD, number: '4000 0000 0000 0002' };

/** GET credits/purchase/{packId} for the user: the new checkout. */
export async function startPurchase(server: TestServer, token: string, packId = 'pack-100') {
  const answer = await callApi(server, `credits/purchase/${packId}`, { token });
  if (answer.status !== 200) throw new Error(`credits/purchase answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return checkoutSchema.parse(answer.body?.data);
}

/** Opens the checkout page and pays with the success card; the answer is the redirect. */
export async function buyPack(server: TestServer, token: string, packId = 'pack-100') {
  const checkout = await startPurchase(server, token, packId);
  const paid = await submitForm(server, checkout.checkout_url, SUCCESS_CARD);
  if (paid.status !== 303) throw new Error(`paying answered ${paid.status}`);
  return checkout;
}

/** Sends the provider's webhook, signed with the server's key (or the given signature). */
export async function sendWebhook(server: TestServer, body: unknown, signature?: string) {
  const { rows } = await server.db.query<{ value: string }>("SELECT value FROM server_secrets WHERE name = 'payment-webhook'");
  const secret = rows[0]?.value ?? '';
  const raw = JSON.stringify(body);
  const response = await fetch(`${server.url}/api/local/webhook`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      'Kinora-Signature': signature ?? createHmac('sha256', secret).update(raw).digest('hex'),
    },
    body: raw,
  });
  return { status: response.status, body: (await response.json()) as { data?: { credited: boolean; status: string }; detail?: string } };
}

export async function purchaseRows(server: Pick<TestServer, 'db'>, sub: string) {
  const { rows } = await server.db.query<{ amount: number; reason: string }>(
    "SELECT amount, reason FROM credit_ledger WHERE user_sub = $1 AND kind = 'purchase' ORDER BY id",
    [sub],
  );
  return rows;
}
