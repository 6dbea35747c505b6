import { createActorContext } from '@xstate/react';
import { bannerMachine } from '@/machines/banner/banner.machine';

/**
 * One banner actor for the whole app. Screens send `banner.show` through `useActorRef()` and
 * the shell renders it with `TopBanner`.
 */
export const BannerActorContext = createActorContext(bannerMachine);
