import type { FastifyInstance } from 'fastify';
import type { CouponRedemption } from '../../../src/services/schemas/coupon.ts';
import type { UserCredits } from '../../../src/services/schemas/credits.ts';
import { redeemCoupon } from '../db/coupons.ts';
import { creditBalance } from '../db/credit-ledger.ts';
import { HttpError, ok } from './http.ts';
import { DETAILS } from './messages.ts';
import type { RouteDeps } from './route-deps.ts';

export async function creditRoutes(app: FastifyInstance, { db, auth }: RouteDeps): Promise<void> {
  app.get('/credits/get', async (request): Promise<{ data: UserCredits }> => {
    const user = await auth.requireUser(request);
    return ok({ credit: await creditBalance(db, user.sub) });
  });

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
