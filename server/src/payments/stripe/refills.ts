import Stripe from 'stripe';
import { findCreditPack } from '../../../../src/config/billing.ts';
import { appendLedgerEntry, autoRefillReason } from '../../db/credit-ledger.ts';
import type { Database } from '../../db/database.ts';
import { insertPayment, newPaymentId } from '../../db/payments.ts';
import {
  claimRefillCharge,
  claimRefillPaid,
  findProviderCustomer,
  markRefillFailed,
  releaseRefillCharge,
  type RefillChargeRow,
} from '../../db/provider-payments.ts';
import { isTransientStripeError } from './client.ts';

/**
 * Auto-refill with a card Stripe keeps. A debit records the refill in its own transaction
 * (db/credit-ledger.ts: at most one per debit, one waiting per person); this charger takes each
 * recorded refill after commit and charges the saved card off-session. The credits are written
 * once, by whichever learns of the success first: the charge's own answer or the
 * `payment_intent.succeeded` webhook (settleRefill). A declined card records the failure and
 * credits nothing.
 *
 * Stripe: https://docs.stripe.com/api/payment_intents/create (amount, currency, customer,
 * payment_method, off_session: true, confirm: true); https://docs.stripe.com/payments/save-during-payment
 * ("Charge the saved payment method later": a decline is a card_error with the PaymentIntent);
 * https://docs.stripe.com/api/idempotent_requests (the refill's id as the key: charging it again
 * after a crash or a retry returns the first answer instead of a second charge).
 */

/** A charge whose charger went quiet this long (a process stopped mid-charge) is taken again. */
const STALE_CHARGE_SECONDS = 120;
/** Tries while Stripe cannot be reached, before the refill is recorded as failed. */
const MAX_ATTEMPTS = 5;

export const refillIdempotencyKey = (refillId: string): string => `kinora-auto-refill-${refillId}`;
/** The metadata key naming the refill on its PaymentIntent (the webhook finds the refill by it). */
export const REFILL_METADATA_KEY = 'kinora_refill_id';

export interface RefillChargerOptions {
  db: Database;
  stripe: Stripe;
  /** How often to look for recorded refills (default 2 s). */
  pollMs?: number;
  onError: (error: unknown, what: string) => void;
}

export interface RefillCharger {
  start(): void;
  stop(): Promise<void>;
  /** Charges every refill waiting now (the poll does this; tests may call it). */
  runOnce(): Promise<void>;
}

/** Writes a charged refill's credits once: true for the call that wrote them. */
export async function settleRefill(db: Database, refillId: string, providerPaymentId: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const paymentId = newPaymentId();
    const refill = await claimRefillPaid(tx, refillId, providerPaymentId, paymentId);
    if (!refill) return false;
    const label = findCreditPack(refill.pack_id)?.label ?? refill.pack_id;
    const ledgerId = await appendLedgerEntry(tx, {
      userSub: refill.user_sub,
      amount: refill.credits,
      kind: 'purchase',
      reason: autoRefillReason(refill.credits, label),
    });
    await insertPayment(tx, {
      id: paymentId,
      userSub: refill.user_sub,
      customerId: null,
      checkoutSessionId: null,
      source: 'auto-refill',
      packId: refill.pack_id,
      credits: refill.credits,
      amountCents: refill.amount_cents,
      currency: refill.currency,
      card: { brand: refill.card_brand, last4: refill.card_last4 },
      ledgerId,
      triggerLedgerId: refill.trigger_ledger_id,
      providerPaymentId,
    });
    return true;
  });
}

async function chargeRefill(db: Database, stripe: Stripe, refill: RefillChargeRow): Promise<void> {
  const customer = await findProviderCustomer(db, refill.user_sub, 'stripe');
  if (!customer) {
    await markRefillFailed(db, refill.id, 'The saved card has no Stripe customer.', null);
    return;
  }
  let intent: Stripe.PaymentIntent;
  try {
    intent = await stripe.paymentIntents.create(
      {
        amount: refill.amount_cents,
        currency: refill.currency.toLowerCase(),
        customer,
        payment_method: refill.provider_payment_method_id,
        off_session: true,
        confirm: true,
        description: autoRefillReason(refill.credits, findCreditPack(refill.pack_id)?.label ?? refill.pack_id),
        metadata: { [REFILL_METADATA_KEY]: refill.id, kinora_user_sub: refill.user_sub, kinora_pack_id: refill.pack_id },
      },
      { idempotencyKey: refillIdempotencyKey(refill.id) },
    );
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (isTransientStripeError(error) && refill.attempts < MAX_ATTEMPTS) {
      await releaseRefillCharge(db, refill.id, message, null);
      return;
    }
    // A card_error carries the PaymentIntent it declined (https://docs.stripe.com/api/errors).
    const declined = error instanceof Stripe.errors.StripeCardError ? (error.payment_intent?.id ?? null) : null;
    await markRefillFailed(db, refill.id, message, declined);
    return;
  }
  if (intent.status === 'succeeded') {
    await settleRefill(db, refill.id, intent.id);
    return;
  }
  // Still processing: the webhook settles it, or the next take after STALE_CHARGE_SECONDS asks
  // again (the same key answers with the same PaymentIntent).
  if (intent.status === 'processing') return;
  await markRefillFailed(db, refill.id, `The payment was not completed (${intent.status}).`, intent.id);
}

export function createRefillCharger(options: RefillChargerOptions): RefillCharger {
  const pollMs = options.pollMs ?? 2000;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let stopped = true;

  const runOnce = async (): Promise<void> => {
    for (;;) {
      const refill = await claimRefillCharge(options.db, 'stripe', STALE_CHARGE_SECONDS);
      if (!refill) return;
      await chargeRefill(options.db, options.stripe, refill).catch((error: unknown) => options.onError(error, `auto-refill ${refill.id}`));
    }
  };

  const tick = (): void => {
    timer = null;
    running = runOnce()
      .catch((error: unknown) => options.onError(error, 'auto-refill charges'))
      .finally(() => {
        running = null;
        if (!stopped) timer = setTimeout(tick, pollMs);
      });
  };

  return {
    start() {
      if (!stopped) return;
      stopped = false;
      timer = setTimeout(tick, 0);
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await running;
    },
    runOnce: () => runOnce(),
  };
}
