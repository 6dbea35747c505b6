import { z } from './zod-mini';

/** A saved card of the card payment provider (only its brand and last four digits are kept). */
export const savedCardSchema = z.object({ brand: z.string(), last4: z.string() });
export type SavedCard = z.infer<typeof savedCardSchema>;

/**
 * GET credits/get. SPEC §3 does not show the object's full shape; the cost comparison of
 * SPEC §6 reads `credit` and treats a missing value as 0. Kinora adds the auto-refill option in
 * force and the card auto-refill pays with.
 */
export const userCreditsSchema = z.object({
  credit: z._default(z.number(), 0),
  auto_refill: z.optional(z.string()),
  card: z.optional(z.nullable(savedCardSchema)),
});
export type UserCredits = z.infer<typeof userCreditsSchema>;
