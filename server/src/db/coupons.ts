import { appendLedgerEntry } from './credit-ledger.ts';
import { isUniqueViolation, type Database } from './database.ts';

export type CouponRedemptionResult =
  | { status: 'redeemed'; code: string; credits: number }
  | { status: 'not-found' }
  | { status: 'already-redeemed' }
  | { status: 'exhausted' };

/** Codes are matched without regard to case or surrounding spaces. */
export const normaliseCouponCode = (code: string): string => code.trim().toUpperCase();

/**
 * Redeems `code` for the user: the redemption row and the 'coupon' ledger row are written in one
 * transaction. The coupon row is locked so the max_redemptions count cannot be overrun, and the
 * UNIQUE (code, user_sub) constraint makes a second redemption by the same user fail even when
 * two requests race.
 */
export async function redeemCoupon(db: Database, userSub: string, rawCode: string): Promise<CouponRedemptionResult> {
  const code = normaliseCouponCode(rawCode);
  try {
    return await db.transaction(async (tx): Promise<CouponRedemptionResult> => {
      const { rows } = await tx.query<{ credits: number; active: boolean; max_redemptions: number | null }>(
        'SELECT credits, active, max_redemptions FROM coupons WHERE code = $1 FOR UPDATE',
        [code],
      );
      const coupon = rows[0];
      if (!coupon || !coupon.active) return { status: 'not-found' };
      const mine = await tx.query('SELECT 1 FROM coupon_redemptions WHERE code = $1 AND user_sub = $2', [code, userSub]);
      if (mine.rowCount > 0) return { status: 'already-redeemed' };
      if (coupon.max_redemptions !== null) {
        const count = await tx.query<{ n: number }>(
          'SELECT count(*)::integer AS n FROM coupon_redemptions WHERE code = $1',
          [code],
        );
        if ((count.rows[0]?.n ?? 0) >= coupon.max_redemptions) return { status: 'exhausted' };
      }
      const ledgerId = await appendLedgerEntry(tx, {
        userSub,
        amount: coupon.credits,
        kind: 'coupon',
        reason: `Coupon ${code}`,
      });
      await tx.query('INSERT INTO coupon_redemptions (code, user_sub, ledger_id) VALUES ($1, $2, $3)', [
        code,
        userSub,
        ledgerId,
      ]);
      return { status: 'redeemed', code, credits: coupon.credits };
    });
  } catch (error) {
    if (isUniqueViolation(error)) return { status: 'already-redeemed' };
    throw error;
  }
}
