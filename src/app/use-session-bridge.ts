import { notifications } from '@mantine/notifications';
import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { leaveApp } from '@/app/leave-app';
import { SessionActorContext } from '@/components/session/session-context';

const TOAST_COLORS = { success: 'green', error: 'red' } as const;

/**
 * Connects the session actor to the router and the toasts: it tells the machine where the person
 * is on every route change (and once on mount), and carries out what the machine asks for —
 * navigate inside the app, leave for an allowlisted redirect, or show a toast.
 */
export function useSessionBridge(): void {
  const session = SessionActorContext.useActorRef();
  const navigate = useNavigate();
  const { pathname, search } = useLocation();

  useEffect(() => {
    session.send({ type: 'location.changed', pathname, search });
  }, [session, pathname, search]);

  useEffect(() => {
    const subscriptions = [
      session.on('session.navigate', (event) => void navigate(event.to, { replace: event.replace })),
      session.on('session.redirect', (event) => leaveApp(event.url)),
      session.on('session.notify', (event) =>
        notifications.show({ color: TOAST_COLORS[event.tone], title: event.title, message: event.message }),
      ),
    ];
    return () => subscriptions.forEach((subscription) => subscription.unsubscribe());
  }, [session, navigate]);
}
