import { z } from 'zod';

/**
 * One quote for a whole film (issue 21 item 6; README "One quote for a whole project"): POST
 * story/{id}/quote, POST and DELETE story/{id}/hold answer this. Shared with the server
 * (server/src/routes/story-hold.ts), which builds its answer with these types.
 */

const credits = z.number().int().nonnegative();

export const storyQuoteLineSchema = z.object({
  part: z.enum(['elements', 'scenes', 'videos', 'audio']),
  count: z.number().int().positive(),
  each: credits,
  total: credits,
});

export const creditHoldSchema = z.object({
  id: z.string(),
  /** Credits set aside for the story when it was held (or last re-quoted). */
  amount: credits,
  /** Of them, spent by the story's parts so far. */
  drawn: credits,
  /** What the hold still keeps for the story. */
  remaining: credits,
  status: z.enum(['open', 'closed']),
  close_reason: z.enum(['released', 'ended', 'deleted']).nullable(),
});

export const storyQuoteSchema = z.object({
  story_id: z.string(),
  /** Everything the story still has to make, by part (joining the film is free). */
  lines: z.array(storyQuoteLineSchema),
  /** Their price. */
  total: credits,
  /** What holding it takes from this person's balance: the total, or 0 for the Developer group (SPEC §6). */
  cost: credits,
  /** The story's open hold (after DELETE: the hold just closed); null when it holds nothing. */
  hold: creditHoldSchema.nullable(),
  /** The balance the person can spend: ledger minus what open holds keep. */
  balance: z.number().int(),
});

export type StoryQuoteAnswer = z.infer<typeof storyQuoteSchema>;
export type CreditHoldAnswer = z.infer<typeof creditHoldSchema>;
