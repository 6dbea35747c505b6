import { DEVELOPER_GROUP } from '@/config/limits';
import { MESSAGES } from '@/config/messages';
import { JOB_TEXTS, TOOL_TEXTS } from '@/config/job-texts';
import { STORY_TEXTS } from '@/config/story-texts';

/**
 * SPEC §6, whether the person can pay for something, in one place: the machines that send a
 * paid call check it before they send anything, and the pages use it to say why a paid button waits. The
 * server applies the same rule (its 402 detail has the same words as `REFUSAL_WORDING.job`).
 */

/** The parts of the current user the credit rule reads. */
export interface CreditCheckUser {
  attributes?: { user_groups?: readonly string[] | null } | null;
}

export interface AffordabilityInput {
  user: CreditCheckUser | null | undefined;
  /** What the action costs. */
  cost: number;
  /** The user's balance; SPEC §3 says an unknown balance counts as 0. */
  credit?: number | null;
  /** The balance is being fetched: a page says so instead of "not enough credits" while it is unknown. */
  creditLoading?: boolean;
}

/** Why a paid action is refused before anything is sent. */
export type RefusalReason = 'signedOut' | 'balanceLoading' | 'notEnoughCredits';

export type Affordability =
  | { affordable: true }
  | { affordable: false; reason: RefusalReason; cost: number; balance: number | null };

/**
 * The rule: no user or no attributes → refused (signed out); a user with no groups at all or in
 * the Developer group → allowed; otherwise allowed only when the cost does not exceed the credit.
 */
export function affordability({ user, cost, credit = null, creditLoading = false }: AffordabilityInput): Affordability {
  if (!user?.attributes) return { affordable: false, reason: 'signedOut', cost, balance: credit };
  const groups = user.attributes.user_groups;
  if (!groups || groups.length === 0 || groups.includes(DEVELOPER_GROUP)) return { affordable: true };
  if (cost <= (credit ?? 0)) return { affordable: true };
  return { affordable: false, reason: credit === null && creditLoading ? 'balanceLoading' : 'notEnoughCredits', cost, balance: credit };
}

export const canAfford = (input: AffordabilityInput): boolean => affordability(input).affordable;

/** The shortfall's words: a tool's ("this costs …", as the server's 402) or a story step's ("this step costs …"). */
export const REFUSAL_WORDING = {
  job: JOB_TEXTS.notEnoughCredits,
  story: STORY_TEXTS.notEnoughCredits,
} as const satisfies Record<string, (cost: number, balance: number | null) => string>;

export type RefusalWording = keyof typeof REFUSAL_WORDING;

/** What a refused action says: sign in first, the balance is loading, or the shortfall. */
export function refusalMessage(refusal: Exclude<Affordability, { affordable: true }>, wording: RefusalWording): string {
  if (refusal.reason === 'signedOut') return MESSAGES.notAuthenticated;
  if (refusal.reason === 'balanceLoading') return TOOL_TEXTS.balanceLoading;
  return REFUSAL_WORDING[wording](refusal.cost, refusal.balance);
}
