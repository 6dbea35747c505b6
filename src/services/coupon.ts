import { couponRedemptionSchema } from '@/services/schemas/coupon';
import type { CouponRedemption } from '@/services/schemas/coupon';
import { apiGet } from '@/services/http';

/** GET coupon/{code}: redeems the code for the signed-in user and returns the credits granted. */
export const redeemCoupon = (code: string): Promise<CouponRedemption> =>
  apiGet(`coupon/${encodeURIComponent(code)}`, couponRedemptionSchema);
