import { z } from 'zod';

/**
 * GET coupon/{code}: the app only needs the credits granted (SPEC §7 "Other"); the code is echoed
 * by the local server but is not required of other servers.
 */
export const couponRedemptionSchema = z.object({ code: z.string().optional(), credits: z.number() });

export type CouponRedemption = z.infer<typeof couponRedemptionSchema>;
