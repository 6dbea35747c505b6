import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Queryable } from '../db/database.ts';
import { serverSecret } from '../db/files.ts';

/** The server_secrets row whose key signs the billing portal and receipt links. */
export const PAYMENT_LINK_SECRET = 'payment-links';
/** The server_secrets row whose key signs (and checks) the provider's webhook calls. */
export const PAYMENT_WEBHOOK_SECRET = 'payment-webhook';

/** How long a billing portal or receipt link works. */
export const PAYMENT_LINK_TTL_SECONDS = 60 * 60;

/** What a link names: whose portal, or which payment's receipt (a payment names its owner). */
export type PaymentLinkClaims = { kind: 'portal'; sub: string } | { kind: 'receipt'; paymentId: string };

/** A 128-bit HMAC-SHA256 tag, base64url: links must stay short (a path segment of at most 100 characters). */
const tag = (secret: string, text: string): Buffer => createHmac('sha256', secret).update(text).digest().subarray(0, 16);

const SUBJECT = /^[\w-]{1,64}$/;

/**
 * `{p|r}.{subject}.{expiry}.{tag}`: the user (portal) or payment (receipt) the link opens, when
 * it stops working (seconds, base 36) and the server's signature over the three.
 */
export function signPaymentLink(secret: string, claims: PaymentLinkClaims, nowMs = Date.now()): string {
  const subject = claims.kind === 'portal' ? claims.sub : claims.paymentId;
  if (!SUBJECT.test(subject)) throw new Error(`a payment link cannot name "${subject}"`);
  const expires = (Math.floor(nowMs / 1000) + PAYMENT_LINK_TTL_SECONDS).toString(36);
  const body = `${claims.kind === 'portal' ? 'p' : 'r'}.${subject}.${expires}`;
  return `${body}.${tag(secret, body).toString('base64url')}`;
}

/** The claims of a link this server signed and that has not expired; null for anything else. */
export function verifyPaymentLink(secret: string, token: string, nowMs = Date.now()): PaymentLinkClaims | null {
  const parts = token.split('.');
  if (parts.length !== 4) return null;
  const [kind = '', subject = '', expires = '', signature = ''] = parts;
  const body = `${kind}.${subject}.${expires}`;
  const expected = tag(secret, body);
  const sent = Buffer.from(signature, 'base64url');
  if (sent.length !== expected.length || !timingSafeEqual(sent, expected)) return null;
  const expiresAt = Number.parseInt(expires, 36);
  if (!Number.isFinite(expiresAt) || expiresAt * 1000 <= nowMs || !SUBJECT.test(subject)) return null;
  if (kind === 'p') return { kind: 'portal', sub: subject };
  if (kind === 'r') return { kind: 'receipt', paymentId: subject };
  return null;
}

/** HMAC-SHA256 hex of a webhook body: the `Kinora-Signature` header the provider sends. */
export const webhookSignature = (secret: string, rawBody: string): string =>
  createHmac('sha256', secret).update(rawBody).digest('hex');

export function verifyWebhookSignature(secret: string, rawBody: string, header: unknown): boolean {
  if (typeof header !== 'string' || !/^[0-9a-f]{64}$/i.test(header.trim())) return false;
  const expected = Buffer.from(webhookSignature(secret, rawBody), 'hex');
  return timingSafeEqual(expected, Buffer.from(header.trim(), 'hex'));
}

/** The server's keys for links and webhooks (made once, kept in server_secrets). */
export async function paymentSecrets(db: Queryable): Promise<{ links: string; webhook: string }> {
  return {
    links: await serverSecret(db, PAYMENT_LINK_SECRET),
    webhook: await serverSecret(db, PAYMENT_WEBHOOK_SECRET),
  };
}
