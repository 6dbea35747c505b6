import { z } from 'zod';

/**
 * One quote for a whole project (issue 21 item 6; README "One quote for a whole project"): POST
 * {story|batch}/{id}/quote, POST and DELETE {story|batch}/{id}/hold answer these. Shared with the
 * server (server/src/routes/project-hold.ts), which builds its answer with these types.
 */

const credits = z.number().int().nonnegative();

const lineFields = {
  count: z.number().int().positive(),
  each: credits,
  total: credits,
};

/** A story's line: one of its parts. */
export const storyQuoteLineSchema = z.object({ part: z.enum(['elements', 'scenes', 'videos', 'audio']), ...lineFields });

/** An album's line: its clips of one model (`label`), or the join. */
export const albumQuoteLineSchema = z.object({ part: z.enum(['clips', 'join']), label: z.string().optional(), ...lineFields });

export const creditHoldSchema = z.object({
  id: z.string(),
  /** Credits set aside for the project when it was held (or last re-quoted). */
  amount: credits,
  /** Of them, spent by the project's parts so far. */
  drawn: credits,
  /** What the hold still keeps for the project. */
  remaining: credits,
  status: z.enum(['open', 'closed']),
  close_reason: z.enum(['released', 'ended', 'deleted']).nullable(),
});

const quoteFields = {
  /** Their price. */
  total: credits,
  /** What holding it takes from this person's balance: the total, or 0 for the Developer group (SPEC §6). */
  cost: credits,
  /** The project's open hold (after DELETE: the hold just closed); null when it holds nothing. */
  hold: creditHoldSchema.nullable(),
  /** The balance the person can spend: ledger minus what open holds keep. */
  balance: z.number().int(),
};

/** A story's quote: everything it still has to make, by part (joining the film is free). */
export const storyQuoteSchema = z.object({ story_id: z.string(), lines: z.array(storyQuoteLineSchema), ...quoteFields });

/** An album's quote: its clips still to make, by model, and the join. */
export const albumQuoteSchema = z.object({ batch_id: z.string(), lines: z.array(albumQuoteLineSchema), ...quoteFields });

export type StoryQuoteAnswer = z.infer<typeof storyQuoteSchema>;
export type AlbumQuoteAnswer = z.infer<typeof albumQuoteSchema>;
export type ProjectQuoteLine = z.infer<typeof storyQuoteLineSchema> | z.infer<typeof albumQuoteLineSchema>;
/** What every project's quote has: the hold machine and panel read only this. */
export type ProjectQuoteAnswer = Omit<StoryQuoteAnswer, 'story_id' | 'lines'> & { lines: ProjectQuoteLine[] };
export type CreditHoldAnswer = z.infer<typeof creditHoldSchema>;
