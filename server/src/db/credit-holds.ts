import { randomBytes } from 'node:crypto';
import type { Queryable } from './database.ts';

/**
 * Credit holds (issue 21 item 6, migration 20): the price of everything a project still has to
 * make, set aside in one transaction so the project is never half-made for lack of credits. The
 * project's parts draw from it as they start (their debits are ordinary ledger rows; the hold's
 * `drawn` grows in the same transaction), a refunded part gives its draw back while the hold is
 * open, and the remainder returns to the free balance when the hold closes. The guards on
 * credit_ledger and credit_holds keep the free balance (creditBalance) ≥ 0 under the owner's lock.
 */

/** The projects a hold can belong to. */
export type HoldProjectKind = 'story' | 'album';

export interface HoldProject {
  kind: HoldProjectKind;
  id: string;
}

/** Why a hold closed. */
export type HoldCloseReason = 'released' | 'ended' | 'deleted';

export interface CreditHold {
  id: string;
  user_sub: string;
  project_kind: HoldProjectKind;
  project_id: string;
  amount: number;
  drawn: number;
  status: 'open' | 'closed';
  close_reason: HoldCloseReason | null;
  created_at: Date;
  closed_at: Date | null;
}

/**
 * Every change of a hold first takes its owner's row lock, the one the balance guards take (FOR NO
 * KEY UPDATE, migration 12): a refund's ledger row takes it before it touches the hold, so taking
 * it first here too keeps one lock order (owner, then hold) and no two transactions deadlock.
 */
async function lockOwner(tx: Queryable, userSub: string): Promise<void> {
  await tx.query('SELECT 1 FROM users WHERE sub = $1 FOR NO KEY UPDATE', [userSub]);
}

const holdColumns = 'id, user_sub, project_kind, project_id, amount, drawn, status, close_reason, created_at, closed_at';

/** What the hold still keeps. */
export const holdRemaining = (hold: Pick<CreditHold, 'amount' | 'drawn'>): number => hold.amount - hold.drawn;

/** The project's open hold, locked for the rest of the transaction when `lock` (null when there is none). */
export async function openHold(tx: Queryable, userSub: string, project: HoldProject, lock = false): Promise<CreditHold | null> {
  const { rows } = await tx.query<CreditHold>(
    `SELECT ${holdColumns} FROM credit_holds
     WHERE user_sub = $1 AND project_kind = $2 AND project_id = $3 AND status = 'open'${lock ? ' FOR NO KEY UPDATE' : ''}`,
    [userSub, project.kind, project.id],
  );
  return rows[0] ?? null;
}

/**
 * Sets aside `remaining` credits for the project: a new open hold, or the open one re-quoted so it
 * keeps exactly `remaining` more than it has drawn. The guard refuses (the ledger's
 * check_violation, see isNegativeBalance) when the free balance cannot cover it; the caller's
 * transaction then writes nothing.
 */
export async function placeHold(tx: Queryable, userSub: string, project: HoldProject, remaining: number): Promise<CreditHold> {
  await lockOwner(tx, userSub);
  const current = await openHold(tx, userSub, project, true);
  if (current) {
    const { rows } = await tx.query<CreditHold>(`UPDATE credit_holds SET amount = drawn + $2 WHERE id = $1 RETURNING ${holdColumns}`, [
      current.id,
      remaining,
    ]);
    const updated = rows[0];
    if (!updated) throw new Error('UPDATE credit_holds returned no row');
    return updated;
  }
  const { rows } = await tx.query<CreditHold>(
    `INSERT INTO credit_holds (id, user_sub, project_kind, project_id, amount) VALUES ($1, $2, $3, $4, $5) RETURNING ${holdColumns}`,
    [randomBytes(12).toString('base64url'), userSub, project.kind, project.id, remaining],
  );
  const inserted = rows[0];
  if (!inserted) throw new Error('INSERT INTO credit_holds returned no row');
  return inserted;
}

/**
 * A part of the project starts and costs `cost`: as much of it as the open hold still keeps is
 * drawn from it (the rest comes from the free balance, e.g. a regeneration beyond the quote).
 * Call it before the part's debit row, in the same transaction. Answers the hold and the amount
 * drawn (null when the project holds nothing).
 */
export async function drawFromHold(tx: Queryable, userSub: string, project: HoldProject, cost: number): Promise<{ holdId: string; drawn: number } | null> {
  await lockOwner(tx, userSub);
  const hold = await openHold(tx, userSub, project, true);
  if (!hold) return null;
  const drawn = Math.min(holdRemaining(hold), cost);
  if (drawn <= 0) return null;
  await tx.query('UPDATE credit_holds SET drawn = drawn + $2 WHERE id = $1', [hold.id, drawn]);
  return { holdId: hold.id, drawn };
}

/**
 * A refunded job gives back what it drew from its project's hold while the hold is open (call it
 * after the refund's ledger row, so the free balance never dips), so the part can be made again
 * from what was set aside. Closed: the refund simply joins the free balance.
 */
export async function returnDrawToHold(tx: Queryable, mediaId: string): Promise<void> {
  await tx.query(
    `UPDATE credit_holds AS hold SET drawn = hold.drawn - media.hold_drawn
     FROM media WHERE media.id = $1 AND media.hold_drawn > 0 AND hold.id = media.hold_id AND hold.status = 'open'`,
    [mediaId],
  );
}

/** Closes the project's open hold (its remainder returns to the free balance); the closed hold, or null when none was open. */
export async function closeHold(tx: Queryable, userSub: string, project: HoldProject, reason: HoldCloseReason): Promise<CreditHold | null> {
  await lockOwner(tx, userSub);
  const { rows } = await tx.query<CreditHold>(
    `UPDATE credit_holds SET status = 'closed', close_reason = $4, closed_at = clock_timestamp()
     WHERE user_sub = $1 AND project_kind = $2 AND project_id = $3 AND status = 'open' RETURNING ${holdColumns}`,
    [userSub, project.kind, project.id, reason],
  );
  return rows[0] ?? null;
}

/** Closes the open holds of these projects, whoever owns them (a deleted story, the guest's clean-up). */
export async function closeHoldsOfProjects(tx: Queryable, kind: HoldProjectKind, ids: readonly string[], reason: HoldCloseReason): Promise<void> {
  if (ids.length === 0) return;
  await tx.query(
    `SELECT 1 FROM users WHERE sub IN (SELECT user_sub FROM credit_holds WHERE project_kind = $1 AND project_id = ANY($2::text[]) AND status = 'open')
     ORDER BY sub FOR NO KEY UPDATE`,
    [kind, ids],
  );
  await tx.query(
    `UPDATE credit_holds SET status = 'closed', close_reason = $3, closed_at = clock_timestamp()
     WHERE project_kind = $1 AND project_id = ANY($2::text[]) AND status = 'open'`,
    [kind, ids, reason],
  );
}
