import { z } from 'zod';

/**
 * GET credits/get. SPEC §3 does not show the object's full shape; the cost comparison of
 * SPEC §6 reads `credit` and treats a missing value as 0.
 */
export const userCreditsSchema = z.object({ credit: z.number().default(0) });

export type UserCredits = z.infer<typeof userCreditsSchema>;
