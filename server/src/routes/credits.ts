import type { FastifyInstance } from 'fastify';
import { findAutoRefillOption } from '../../../src/config/billing.ts';
import type { CouponRedemption } from '../../../src/services/schemas/coupon.ts';
import type { UserCredits } from '../../../src/services/schemas/credits.ts';
import type { AutoRefill, Checkout, CheckoutStatus, CreditHistory } from '../../../src/services/schemas/payments.ts';
import { redeemCoupon } from '../db/coupons.ts';
import { creditHistoryPage, decodeHistoryCursor } from '../db/credit-history.ts';
import { creditBalance } from '../db/credit-ledger.ts';
import { autoRefillOption, findCheckoutSession, savedCard, setAutoRefillOption } from '../db/payments.ts';
import { checkoutStatusOf } from '../payments/checkout.ts';
import { HttpError, ok } from './http.ts';
import { DETAILS } from './messages.ts';
import { requestOrigin, viaCardProvider } from './payments.ts';
import type { RouteDeps } from './route-deps.ts';

export async function creditRoutes(app: FastifyInstance, { db, auth, payments }: RouteDeps): Promise<void> {
  app.get('/credits/get', async (request): Promise<{ data: UserCredits }> => {
    const user = await auth.requireUser(request);
    return ok({
      credit: await creditBalance(db, user.sub),
      auto_refill: await autoRefillOption(db, user.sub),
      card: await savedCard(db, user.sub),
    });
  });

  /** Opens a checkout of the card provider for one pack; the app sends the browser to its page. */
  app.get<{ Params: { packId: string } }>('/credits/purchase/:packId', async (request): Promise<{ data: Checkout }> => {
    const user = await auth.requireUser(request);
    const created = await viaCardProvider(request, () =>
      payments.createCheckout({
        userSub: user.sub,
        username: user.row.username,
        email: user.row.email,
        packId: request.params.packId,
        origin: requestOrigin(request),
      }),
    );
    if (!created) throw new HttpError(404, DETAILS.creditPackNotFound);
    return ok({ session_id: created.session.id, checkout_url: created.checkoutUrl });
  });

  /** What became of a checkout the person came back from (their own only). */
  app.get<{ Params: { sessionId: string } }>(
    '/credits/checkout/:sessionId',
    async (request): Promise<{ data: CheckoutStatus }> => {
      const user = await auth.requireUser(request);
      const session = await findCheckoutSession(db, request.params.sessionId);
      if (!session || session.user_sub !== user.sub) throw new HttpError(404, DETAILS.checkoutNotFound);
      return ok(checkoutStatusOf(session));
    },
  );

  /** Sets auto-refill; any option but off needs the card a purchase saved. */
  app.get<{ Params: { option: string } }>('/credits/auto-refill/:option', async (request): Promise<{ data: AutoRefill }> => {
    const user = await auth.requireUser(request);
    const option = findAutoRefillOption(request.params.option);
    if (!option) throw new HttpError(400, DETAILS.unknownAutoRefillOption);
    const card = await savedCard(db, user.sub);
    if (option.threshold !== null && !card) throw new HttpError(409, DETAILS.autoRefillNeedsCard);
    await setAutoRefillOption(db, user.sub, option.value);
    return ok({ auto_refill: option.value, threshold: option.threshold, pack_id: option.packId, card });
  });

  app.get<{ Querystring: { next_start_keys?: string } }>(
    '/credits/history',
    async (request): Promise<{ data: CreditHistory }> => {
      const user = await auth.requireUser(request);
      const before = decodeHistoryCursor(request.query.next_start_keys);
      if (before === 'invalid') throw new HttpError(400, DETAILS.historyCursorInvalid);
      return ok(await creditHistoryPage(db, user.sub, before));
    },
  );

  /** Redeems the coupon for the caller: once per user, the credits land in the ledger. */
  app.get<{ Params: { code: string } }>('/coupon/:code', async (request): Promise<{ data: CouponRedemption }> => {
    const user = await auth.requireUser(request);
    const result = await redeemCoupon(db, user.sub, request.params.code);
    switch (result.status) {
      case 'redeemed':
        return ok({ code: result.code, credits: result.credits });
      case 'not-found':
        throw new HttpError(404, DETAILS.couponNotFound);
      case 'already-redeemed':
        throw new HttpError(409, DETAILS.couponAlreadyRedeemed);
      case 'exhausted':
        throw new HttpError(409, DETAILS.couponExhausted);
    }
  });
}
