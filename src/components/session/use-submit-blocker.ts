import { useSelector } from '@xstate/react';
import { SessionActorContext } from '@/components/session/session-context';
import { TOOL_TEXTS } from '@/config/job-texts';
import { canAfford } from '@/lib/affordability';
import { selectOptionalCreditBalance, selectOptionalCreditsLoading } from '@/machines/session/credits.selectors';
import { selectCreditsRef, selectCurrentUser, selectIsSignedIn } from '@/machines/session/session.selectors';

export interface SubmitBlocker {
  /** Why "Generate" cannot be pressed now, or null when it can. */
  reason: string | null;
  /** The reason is "sign in": it links to the sign-in page. */
  signInLink: boolean;
  balance: number | null;
}

/**
 * Why "Generate" cannot be pressed, shared by every page that starts a paid job (the generation
 * tools, the video creation pages, LoRA Finetune): signed out → sign in; no model (cost null) →
 * none available; short of credits (SPEC §6, the rule the job machine applies before it sends
 * anything) → the shortfall, or "loading" while the balance is not known yet.
 */
export function useSubmitBlocker(cost: number | null): SubmitBlocker {
  const signedIn = SessionActorContext.useSelector(selectIsSignedIn);
  const user = SessionActorContext.useSelector(selectCurrentUser);
  const creditsRef = SessionActorContext.useSelector(selectCreditsRef);
  const balance = useSelector(creditsRef, selectOptionalCreditBalance);
  const balanceLoading = useSelector(creditsRef, selectOptionalCreditsLoading);
  if (!signedIn) return { reason: TOOL_TEXTS.signInToGenerate, signInLink: true, balance };
  if (cost === null) return { reason: TOOL_TEXTS.noModel, signInLink: false, balance };
  if (!canAfford({ user, cost, credit: balance })) {
    const reason = balance === null && balanceLoading ? TOOL_TEXTS.balanceLoading : TOOL_TEXTS.notEnoughCredits(cost, balance);
    return { reason, signInLink: false, balance };
  }
  return { reason: null, signInLink: false, balance };
}
