import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { CreditHoldAnswer, ProjectQuoteAnswer, ProjectQuoteLine } from '../../../src/services/schemas/project-hold.ts';
import { closeHold, holdRemaining, openHold, placeHold, type CreditHold, type HoldProjectKind } from '../db/credit-holds.ts';
import { creditBalance, isNegativeBalance } from '../db/credit-ledger.ts';
import type { Database, Queryable } from '../db/database.ts';
import { costFor } from '../jobs/charge.ts';
import { HttpError, ok } from './http.ts';
import { runIdempotent } from './idempotent.ts';
import { DETAILS } from './messages.ts';
import { idParams } from './route-schemas.ts';
import type { AuthUser, UserAuth } from './user-auth.ts';

/**
 * One quote for a whole project (issue 21 item 6, README "One quote for a whole project"), the
 * same three calls for every kind of project (a story, an album):
 *
 * - `POST {path}/{id}/quote`: the price of everything the project still has to make (its own
 *   quote: the prices its generation charges), with its open hold and the free balance; holds nothing.
 * - `POST {path}/{id}/hold` (Idempotency-Key): quotes again and sets that total aside in one
 *   transaction (a project already holding is re-quoted: its hold keeps exactly the new total more
 *   than it has drawn); 402 with SPEC §8's words when the free balance cannot cover it.
 * - `DELETE {path}/{id}/hold`: releases the hold; its remainder returns to the free balance.
 *
 * The project's parts draw from the hold as they start (their route passes it to chargeJobs);
 * ending the project (its join) or deleting it closes it.
 */

/** What the project's quote is made of (without the id field and what the hold adds). */
interface ProjectPrice<Line> {
  lines: Line[];
  total: number;
}

/** One kind of project that holds: where its calls live and how it is found, locked and priced. */
export interface HoldableProject<Row extends { id: string }, Line extends ProjectQuoteLine> {
  kind: HoldProjectKind;
  /** The calls' path segment: `story`, `batch`. */
  path: string;
  /** The answer's field naming the project: `story_id`, `batch_id`. */
  idField: string;
  notFound: () => HttpError;
  /** 404 of DELETE hold when the project holds nothing. */
  nothingHeld: string;
  /** 400 of POST hold when nothing is left to make. */
  nothingToHold: string;
  find: (db: Queryable, id: string, userSub: string) => Promise<Row | null>;
  /**
   * The project's row locked for the transaction: taken first, before the owner's and the hold's
   * locks (one lock order on every path: project, owner, hold).
   */
  lock: (tx: Queryable, id: string, userSub: string) => Promise<Row | null>;
  quote: (tx: Queryable, row: Row) => Promise<ProjectPrice<Line>>;
}

export const holdAnswer = (hold: CreditHold): CreditHoldAnswer => ({
  id: hold.id,
  amount: hold.amount,
  drawn: hold.drawn,
  remaining: holdRemaining(hold),
  status: hold.status,
  close_reason: hold.close_reason,
});

type Answer<Line> = Omit<ProjectQuoteAnswer, 'lines'> & { lines: Line[] } & Record<string, unknown>;

export async function projectHoldRoutes<Row extends { id: string }, Line extends ProjectQuoteLine>(
  app: FastifyInstance,
  { db, auth }: { db: Database; auth: UserAuth },
  project: HoldableProject<Row, Line>,
): Promise<void> {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const ref = (id: string) => ({ kind: project.kind, id });

  async function quoteAnswer(tx: Queryable, user: AuthUser, row: Row, hold: CreditHold | null): Promise<Answer<Line>> {
    const quote = await project.quote(tx, row);
    return {
      [project.idField]: row.id,
      lines: quote.lines,
      total: quote.total,
      cost: costFor(user, quote.total),
      hold: hold ? holdAnswer(hold) : null,
      balance: await creditBalance(tx, user.sub),
    };
  }

  typed.post(`/${project.path}/:id/quote`, { schema: { params: idParams } }, async (request): Promise<{ data: Answer<Line> }> => {
    const user = await auth.requireUser(request);
    const row = await project.find(db, request.params.id, user.sub);
    if (!row) throw project.notFound();
    return ok(await quoteAnswer(db, user, row, await openHold(db, user.sub, ref(row.id))));
  });

  typed.post(`/${project.path}/:id/hold`, { schema: { params: idParams } }, async (request, reply) => {
    const user = await auth.requireUser(request);
    if (!(await project.find(db, request.params.id, user.sub))) throw project.notFound();
    const held = ref(request.params.id);
    return runIdempotent(
      db,
      request,
      reply,
      user.sub,
      `${project.path}/${request.params.id}/hold`,
      async () => {
        let cost = 0;
        try {
          const payload = await db.transaction(async (tx) => {
            const row = await project.lock(tx, request.params.id, user.sub);
            if (!row) throw project.notFound();
            const quoted = await quoteAnswer(tx, user, row, null);
            if (quoted.total === 0) throw new HttpError(400, project.nothingToHold);
            cost = quoted.cost;
            const hold = await placeHold(tx, user.sub, held, quoted.cost);
            return { ...quoted, hold: holdAnswer(hold), balance: await creditBalance(tx, user.sub) };
          });
          return { statusCode: 200, payload: ok(payload) };
        } catch (error) {
          if (!isNegativeBalance(error)) throw error;
          // Read after the refusal, not before the owner's lock was waited for: a project that won
          // the race has committed its hold by now, and the message names what is really there
          // (the free balance plus what this project already holds).
          const current = await openHold(db, user.sub, held);
          throw new HttpError(402, DETAILS.notEnoughCredits(cost, (await creditBalance(db, user.sub)) + (current ? holdRemaining(current) : 0)));
        }
      },
      // The answer is kept whole (no media to rebuild): a retry gets the hold as it was placed.
      async () => null,
    );
  });

  typed.delete(`/${project.path}/:id/hold`, { schema: { params: idParams } }, async (request): Promise<{ data: Answer<Line> }> => {
    const user = await auth.requireUser(request);
    return ok(
      await db.transaction(async (tx) => {
        const row = await project.lock(tx, request.params.id, user.sub);
        if (!row) throw project.notFound();
        const closed = await closeHold(tx, user.sub, ref(row.id), 'released');
        if (!closed) throw new HttpError(404, project.nothingHeld);
        return quoteAnswer(tx, user, row, closed);
      }),
    );
  });
}
