import type { NotificationsProps } from '@mantine/notifications';
import { lazy, Suspense } from 'react';

/**
 * The toasts' container (SPEC §2.9 item 6), downloaded beside the first render instead of in the
 * initial bundle. `notifications.show` only writes to Mantine's store, which lives in the initial
 * bundle; a toast shown before the container arrives is in the store and appears when it mounts.
 */
const Notifications = lazy(() =>
  import('@/app/notifications-container').then((module) => ({ default: module.Notifications })),
);

export function LazyNotifications(props: NotificationsProps) {
  return (
    <Suspense fallback={null}>
      <Notifications {...props} />
    </Suspense>
  );
}
