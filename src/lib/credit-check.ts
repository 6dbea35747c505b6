import { DEVELOPER_GROUP } from '@/config/limits';

/** The parts of the current user the credit rule reads. */
export interface CreditCheckUser {
  attributes?: { user_groups?: readonly string[] | null } | null;
}

export interface CreditCheckInput {
  user: CreditCheckUser | null | undefined;
  /** What the action costs. */
  cost: number;
  /** The user's balance; SPEC §3 says an unknown balance counts as 0. */
  credit?: number | null;
}

/**
 * SPEC §6 credit check: no user or no attributes → denied; a user with no groups at all or in
 * the Developer group → allowed; otherwise allowed only when the cost does not exceed the credit.
 */
export function canAfford({ user, cost, credit }: CreditCheckInput): boolean {
  if (!user?.attributes) return false;
  const groups = user.attributes.user_groups;
  if (!groups || groups.length === 0) return true;
  if (groups.includes(DEVELOPER_GROUP)) return true;
  return cost <= (credit ?? 0);
}
