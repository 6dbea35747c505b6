import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { storyQuote } from '../../../src/lib/story-quote.ts';
import type { CreditHoldAnswer, StoryQuoteAnswer } from '../../../src/services/schemas/story-hold.ts';
import { closeHold, holdRemaining, openHold, placeHold, type CreditHold, type HoldProject } from '../db/credit-holds.ts';
import { creditBalance, isNegativeBalance } from '../db/credit-ledger.ts';
import type { Queryable } from '../db/database.ts';
import { lockOwnStory, findOwnStory, type StoryRow } from '../db/stories.ts';
import { costFor } from '../jobs/charge.ts';
import { HttpError, ok } from './http.ts';
import { runIdempotent } from './idempotent.ts';
import type { MediaRouteDeps } from './media-deps.ts';
import { DETAILS } from './messages.ts';
import { idParams } from './route-schemas.ts';
import { bad, checkStoryboard } from './story-input.ts';
import type { AuthUser } from './user-auth.ts';

/**
 * One quote for a whole film (issue 21 item 6, README "One quote for a whole project"):
 *
 * - `POST story/{id}/quote`: the price of everything the story still has to make (storyQuote: the
 *   steps' own prices), with the story's open hold and the free balance; holds nothing.
 * - `POST story/{id}/hold` (Idempotency-Key): quotes again and sets that total aside in one
 *   transaction (a story already holding is re-quoted: its hold keeps exactly the new total more
 *   than it has drawn); 402 with SPEC §8's words when the free balance cannot cover it.
 * - `DELETE story/{id}/hold`: releases the hold; its remainder returns to the free balance.
 *
 * The story's parts draw from the hold as they start (story.ts passes it to chargeJobs); joining
 * the film or deleting the story closes it.
 */

const NOT_FOUND = 'Failed to find a Story with this id';
const NOTHING_HELD = 'This story holds no credits.';
const NOTHING_TO_HOLD = 'Nothing to hold: every part of this story is made and up to date.';

export const storyProject = (storyId: string): HoldProject => ({ kind: 'story', id: storyId });

export const holdAnswer = (hold: CreditHold): CreditHoldAnswer => ({
  id: hold.id,
  amount: hold.amount,
  drawn: hold.drawn,
  remaining: holdRemaining(hold),
  status: hold.status,
  close_reason: hold.close_reason,
});

async function quoteAnswer(tx: Queryable, user: AuthUser, story: StoryRow, hold: CreditHold | null): Promise<StoryQuoteAnswer> {
  const { board, statusOf } = await checkStoryboard(tx, story.id, story.storyboard);
  const quote = storyQuote({ style: story.style, aspect_ratio: story.aspect_ratio }, board, statusOf);
  return {
    story_id: story.id,
    lines: quote.lines,
    total: quote.total,
    cost: costFor(user, quote.total),
    hold: hold ? holdAnswer(hold) : null,
    balance: await creditBalance(tx, user.sub),
  };
}

export async function storyHoldRoutes(app: FastifyInstance, { db, auth }: MediaRouteDeps): Promise<void> {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const storyNotFound = (): HttpError => new HttpError(404, NOT_FOUND);

  typed.post('/story/:id/quote', { schema: { params: idParams } }, async (request): Promise<{ data: StoryQuoteAnswer }> => {
    const user = await auth.requireUser(request);
    const story = await findOwnStory(db, request.params.id, user.sub);
    if (!story) throw storyNotFound();
    return ok(await quoteAnswer(db, user, story, await openHold(db, user.sub, storyProject(story.id))));
  });

  typed.post('/story/:id/hold', { schema: { params: idParams } }, async (request, reply) => {
    const user = await auth.requireUser(request);
    if (!(await findOwnStory(db, request.params.id, user.sub))) throw storyNotFound();
    const project = storyProject(request.params.id);
    return runIdempotent(
      db,
      request,
      reply,
      user.sub,
      `story/${request.params.id}/hold`,
      async () => {
        let wanted = { cost: 0, available: 0 };
        try {
          const payload = await db.transaction(async (tx) => {
            // The story's lock first (then its owner's, then the hold's: every path takes them in this order).
            const story = await lockOwnStory(tx, request.params.id, user.sub);
            if (!story) throw storyNotFound();
            const quoted = await quoteAnswer(tx, user, story, null);
            if (quoted.total === 0) throw bad(NOTHING_TO_HOLD);
            const current = await openHold(tx, user.sub, project);
            wanted = { cost: quoted.cost, available: quoted.balance + (current ? holdRemaining(current) : 0) };
            const hold = await placeHold(tx, user.sub, project, quoted.cost);
            return { ...quoted, hold: holdAnswer(hold), balance: await creditBalance(tx, user.sub) };
          });
          return { statusCode: 200, payload: ok(payload) };
        } catch (error) {
          if (!isNegativeBalance(error)) throw error;
          throw new HttpError(402, DETAILS.notEnoughCredits(wanted.cost, wanted.available));
        }
      },
      // The answer is kept whole (no media to rebuild): a retry gets the hold as it was placed.
      async () => null,
    );
  });

  typed.delete('/story/:id/hold', { schema: { params: idParams } }, async (request): Promise<{ data: StoryQuoteAnswer }> => {
    const user = await auth.requireUser(request);
    return ok(
      await db.transaction(async (tx) => {
        const story = await lockOwnStory(tx, request.params.id, user.sub);
        if (!story) throw storyNotFound();
        const closed = await closeHold(tx, user.sub, storyProject(story.id), 'released');
        if (!closed) throw new HttpError(404, NOTHING_HELD);
        return quoteAnswer(tx, user, story, closed);
      }),
    );
  });
}
