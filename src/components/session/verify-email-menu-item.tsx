import { useSelector } from '@xstate/react';
import { SessionActorContext } from '@/components/session/session-context';
import { Menu } from '@/components/session/lazy-menu';
import { SESSION_TEXTS } from '@/machines/session/session.texts';
import { selectVerificationClosed } from '@/machines/session/email-verification.selectors';
import { selectEmailVerificationRef } from '@/machines/session/session.selectors';

/**
 * The account menu's "Verify email" (issue 17): Verify Email comes once per sign-in, and a person
 * who chose Cancel opens it again from here while their e-mail is not verified.
 */
export function VerifyEmailMenuItem() {
  const verification = SessionActorContext.useSelector(selectEmailVerificationRef);
  const closed = useSelector(verification, (snapshot) => (snapshot ? selectVerificationClosed(snapshot) : false));
  if (!verification || !closed) return null;
  return <Menu.Item onClick={() => verification.send({ type: 'emailVerification.open' })}>{SESSION_TEXTS.verifyEmailLater}</Menu.Item>;
}
