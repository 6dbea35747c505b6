import { shallowEqual } from '@xstate/react';
import { SessionActorContext } from '@/components/session/session-context';
import { SessionModalDialog } from '@/components/session/session-modals';
import { VerifyEmailModal } from '@/components/session/verify-email-modal';
import { selectEmailVerificationRef, selectModal } from '@/machines/session/session.selectors';

/**
 * The overlays the session shows on any page: the Verify Email modal while the e-mail
 * verification child is open, and the guest welcome, coupon or refused-redirect modal on top.
 */
export function SessionOverlays() {
  const session = SessionActorContext.useActorRef();
  const modal = SessionActorContext.useSelector(selectModal, shallowEqual);
  const verification = SessionActorContext.useSelector(selectEmailVerificationRef);
  return (
    <>
      {/* A new child (another user) gets a fresh form. */}
      {verification && <VerifyEmailModal key={verification.id} verification={verification} />}
      <SessionModalDialog modal={modal} onConfirm={() => session.send({ type: 'modal.confirm' })} />
    </>
  );
}
