import { z } from './zod-mini';

/**
 * GET coupon/{code}: the app only needs the credits granted (SPEC §7 "Other"); the code is echoed
 * by the local server but is not required of other servers.
 */
export const couponRedemptionSchema = z.object({ code: z.optional(z.string()), credits: z.number() });

export type CouponRedemption = z.infer<typeof couponRedemptionSchema>;
