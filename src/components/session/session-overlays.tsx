import { shallowEqual } from '@xstate/react';
import { lazy, Suspense } from 'react';
import { SessionActorContext } from '@/components/session/session-context';
import { LAZY_IMPORT_RETRY_DELAYS_MS } from '@/config/limits';
import { retryImport } from '@/lib/chunk-load';
import { selectEmailVerificationRef, selectModal } from '@/machines/session/session.selectors';

// Most visits never show either overlay, so their forms and dialogs are loaded only when needed.
const VerifyEmailModal = lazy(async () => ({
  default: (await retryImport(() => import('@/components/session/verify-email-modal'), LAZY_IMPORT_RETRY_DELAYS_MS))
    .VerifyEmailModal,
}));
const SessionModalDialog = lazy(async () => ({
  default: (await retryImport(() => import('@/components/session/session-modals'), LAZY_IMPORT_RETRY_DELAYS_MS))
    .SessionModalDialog,
}));

/**
 * The overlays the session shows on any page, one at a time (two modals would mean two focus
 * traps): the guest welcome, coupon or refused-redirect modal first, and the Verify Email modal
 * while the e-mail verification child is open and no session modal is.
 */
export function SessionOverlays() {
  const session = SessionActorContext.useActorRef();
  const modal = SessionActorContext.useSelector(selectModal, shallowEqual);
  const verification = SessionActorContext.useSelector(selectEmailVerificationRef);
  // Nothing to show (a visitor's first page): no Suspense boundary either, which React would take
  // over from prerendered markup on its own, in one long task at the first update above it.
  if (!verification && !modal) return null;
  return (
    <Suspense fallback={null}>
      {/* A new child (another user) gets a fresh form; it stays mounted, closed, while a session modal shows, so a typed code survives. */}
      {verification && <VerifyEmailModal key={verification.id} verification={verification} waiting={modal !== null} />}
      {modal && <SessionModalDialog modal={modal} onConfirm={() => session.send({ type: 'modal.confirm' })} />}
    </Suspense>
  );
}
