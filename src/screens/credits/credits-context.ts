import { createActorContext } from '@xstate/react';
import { creditsPageMachine } from '@/machines/credits-page/credits-page.machine';

/** The credits page's actor, shared by its sections. */
export const CreditsPageActorContext = createActorContext(creditsPageMachine);
