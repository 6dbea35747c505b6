import { notifications } from '@mantine/notifications';
import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { leaveApp } from '@/app/leave-app';
import { BannerActorContext } from '@/components/banner/banner-context';
import { SessionActorContext } from '@/components/session/session-context';

const TOAST_COLORS = { success: 'green', error: 'red' } as const;

/**
 * Connects the session actor to the router and the toasts: it tells the machine where the person
 * is on every route change (and once on mount), and carries out what the machine asks for —
 * navigate inside the app, leave for an allowlisted redirect, show a toast or raise the top banner.
 */
export function useSessionBridge(): void {
  const session = SessionActorContext.useActorRef();
  const banner = BannerActorContext.useActorRef();
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
      session.on('session.banner', (event) => banner.send({ type: 'banner.show', kind: event.kind, message: event.message })),
    ];
    return () => subscriptions.forEach((subscription) => subscription.unsubscribe());
  }, [session, navigate, banner]);
}
