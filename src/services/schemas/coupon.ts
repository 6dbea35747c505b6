import { z } from 'zod';

/** GET coupon/{code}: the answer the app uses carries the credits granted (SPEC §7 "Other"). */
export const couponRedemptionSchema = z.object({ code: z.string(), credits: z.number() });

export type CouponRedemption = z.infer<typeof couponRedemptionSchema>;
