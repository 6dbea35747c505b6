import { Alert } from '@mantine/core';
import { shallowEqual } from '@xstate/react';
import { useEffect } from 'react';
import { BannerActorContext } from '@/components/banner/banner-context';
import { selectVisibleBanner } from '@/machines/banner/banner.selectors';

const COLORS = { success: 'teal', error: 'red' } as const;
const TITLES = { success: 'Success', error: 'Error' } as const;

/**
 * SPEC §2.9 item 5: the global success / error banner at the top of the page. Mounted once (in the
 * shell), it also tells the banner actor when the browser goes offline and comes back online.
 */
export function TopBanner() {
  const banner = BannerActorContext.useSelector(selectVisibleBanner, shallowEqual);
  const bannerActor = BannerActorContext.useActorRef();
  useEffect(() => {
    const offline = () => bannerActor.send({ type: 'connection.offline' });
    const online = () => bannerActor.send({ type: 'connection.online' });
    if (!navigator.onLine) offline();
    window.addEventListener('offline', offline);
    window.addEventListener('online', online);
    return () => {
      window.removeEventListener('offline', offline);
      window.removeEventListener('online', online);
    };
  }, [bannerActor]);
  if (!banner) return null;
  return (
    <Alert
      role={banner.kind === 'error' ? 'alert' : 'status'}
      color={COLORS[banner.kind]}
      title={TITLES[banner.kind]}
      withCloseButton
      closeButtonLabel="Dismiss notice"
      onClose={() => bannerActor.send({ type: 'banner.dismiss' })}
      mb="md"
    >
      {banner.message}
    </Alert>
  );
}
