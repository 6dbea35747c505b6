import { createActorContext } from '@xstate/react';
import { appConfigMachine } from '@/machines/app-config/app-config.machine';

/**
 * One appConfig actor for the whole app (SPEC §4 "App configuration"): screens read the tiers,
 * tools, motion models and camera movements through its selectors.
 */
export const AppConfigActorContext = createActorContext(appConfigMachine);
