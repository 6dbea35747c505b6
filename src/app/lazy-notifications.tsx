import { notificationsStore, useNotifications, type NotificationsProps } from '@mantine/notifications';
import { lazy, Suspense, useState } from 'react';

/**
 * The toasts' container (SPEC §2.9 item 6), downloaded when the first toast is shown instead of
 * with the first page (issue 19: most first visits show none). `notifications.show` only writes
 * to Mantine's store, which lives in the initial bundle; the container mounts once the store holds
 * a toast, and shows it as soon as it arrives. Once mounted it stays, for the toasts after.
 */
const Notifications = lazy(() =>
  import('@/app/notifications-container').then((module) => ({ default: module.Notifications })),
);

export function LazyNotifications(props: NotificationsProps) {
  const { notifications, queue } = useNotifications(notificationsStore);
  const [needed, setNeeded] = useState(false);
  if (!needed && (notifications.length > 0 || queue.length > 0)) setNeeded(true);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <Notifications {...props} />
    </Suspense>
  );
}
