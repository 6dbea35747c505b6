import { DEVELOPER_GROUP } from '../../../src/config/limits.ts';
import { drawFromHold, type HoldProject } from '../db/credit-holds.ts';
import { appendLedgerEntry, creditBalance, isNegativeBalance } from '../db/credit-ledger.ts';
import type { Database, Queryable } from '../db/database.ts';
import { bindIdempotencyMedia } from '../db/idempotency.ts';
import { insertMedia, QUEUED_STATUS, type MediaRow, type NewMedia } from '../db/media.ts';
import { HttpError } from '../routes/http.ts';
import { DETAILS } from '../routes/messages.ts';

/**
 * The one way a paid job comes into being (ARCHITECTURE §4): its media row and its debit are one
 * transaction, the ledger refuses a balance below zero (402 with SPEC §8's message, nothing
 * written), the Idempotency-Key is bound in the same commit, and SPEC §6's Developer group pays
 * nothing. The five paid routes (generation, video creation, LoRA finetune, batch clips, story
 * parts) call `chargeJobs`; a job's refund is the engine's (`endJobWithRefund`, once per job).
 */

/** Who pays: the signed-in caller (an AuthUser fits). */
export interface Payer {
  sub: string;
  groups: readonly string[];
  row: { logo_variant: boolean };
}

/** SPEC §6: members of the Developer group are not charged. The only place this rule is derived. */
export const isDeveloper = (payer: Pick<Payer, 'groups'>): boolean => payer.groups.includes(DEVELOPER_GROUP);

/** The credits a job of `price` debits from this payer now (0 for the Developer group). */
export const costFor = (payer: Pick<Payer, 'groups'>, price: number): number => (isDeveloper(payer) ? 0 : price);

/** A job's media row as its route builds it; who pays, what it costs and its queued status are the charge's. */
export type JobMedia = Omit<NewMedia, 'id' | 'userSub' | 'status' | 'cost' | 'charged' | 'logoVariant'> & { id: string };

/** One job a call pays for. */
export interface PaidJob {
  media: JobMedia;
  /** Its price before the Developer exemption: the 402 message names the sum of these. */
  price: number;
  /** The ledger row's reason, e.g. "Text to Image · Flux". */
  reason: string;
}

/** A job whose debit is already decided (`cost` 0: not charged). */
export interface ChargedJob {
  media: JobMedia;
  userSub: string;
  logoVariant: boolean;
  cost: number;
  reason: string;
  /** The project whose open hold pays first (credit-holds.ts); the rest comes from the free balance. */
  hold?: HoldProject;
}

/**
 * Writes one queued job in `tx` and, when it costs anything, its debit (one ledger row naming the
 * job, however it is paid). What the project's open hold still keeps pays first: the hold's draw
 * is written before the debit, so a job the hold covers leaves the free balance as it was. A free
 * balance that would go negative throws the ledger's error, so the caller's transaction writes
 * nothing; `chargeJobs` turns that into the 402.
 */
export async function writeChargedJob(tx: Queryable, job: ChargedJob): Promise<MediaRow> {
  const charged = job.cost > 0;
  const row = await insertMedia(tx, {
    ...job.media,
    userSub: job.userSub,
    status: QUEUED_STATUS,
    cost: job.cost,
    charged,
    logoVariant: job.logoVariant,
  });
  if (!charged) return row;
  const draw = job.hold ? await drawFromHold(tx, job.userSub, job.hold, job.cost) : null;
  if (draw) await tx.query('UPDATE media SET hold_id = $2, hold_drawn = $3 WHERE id = $1', [job.media.id, draw.holdId, draw.drawn]);
  await appendLedgerEntry(tx, { userSub: job.userSub, amount: -job.cost, kind: 'debit', reason: job.reason, jobId: job.media.id });
  return row;
}

/** What a paid call writes in its one transaction. */
export interface ChargeOrder<P, T> {
  jobs: readonly PaidJob[];
  /** The call's Idempotency-Key: bound to the first job in the same commit as the debits, so a retry after a crash replays it. */
  idempotencyKey: string | null;
  /** The project whose open hold pays for these jobs first (AI Story's parts). */
  hold?: HoldProject;
  /** First in the transaction: re-read and lock what the jobs belong to (throw to write nothing). */
  prepare?: (tx: Queryable) => Promise<P>;
  /** After the jobs and their debits, in the same commit: what they belong to names them. Its answer is chargeJobs's. */
  finish: (tx: Queryable, rows: MediaRow[], prepared: P) => Promise<T>;
}

/**
 * Charges `payer` for every job of one call and queues them, all or nothing: either every job is
 * paid for and written, or (402 "Not enough credits: this costs Σ price …") nothing is. Other
 * errors (a 404 or 409 thrown by `prepare`/`finish`) pass through unchanged.
 */
export async function chargeJobs<P, T>(db: Database, payer: Payer, order: ChargeOrder<P, T>): Promise<T> {
  try {
    return await db.transaction(async (tx) => {
      const prepared = order.prepare ? await order.prepare(tx) : (undefined as P);
      const rows: MediaRow[] = [];
      for (const job of order.jobs) {
        rows.push(
          await writeChargedJob(tx, {
            media: job.media,
            userSub: payer.sub,
            logoVariant: payer.row.logo_variant,
            cost: costFor(payer, job.price),
            reason: job.reason,
            hold: order.hold,
          }),
        );
      }
      const answer = await order.finish(tx, rows, prepared);
      const first = order.jobs[0];
      if (order.idempotencyKey && first) await bindIdempotencyMedia(tx, payer.sub, order.idempotencyKey, first.media.id);
      return answer;
    });
  } catch (error) {
    if (!isNegativeBalance(error)) throw error;
    const total = order.jobs.reduce((sum, job) => sum + job.price, 0);
    throw new HttpError(402, DETAILS.notEnoughCredits(total, await creditBalance(db, payer.sub)));
  }
}

/** `finish` for a call that makes one job: its row. */
export async function theJob(_tx: Queryable, rows: MediaRow[]): Promise<MediaRow> {
  const row = rows[0];
  if (!row) throw new Error('chargeJobs wrote no job');
  return row;
}
