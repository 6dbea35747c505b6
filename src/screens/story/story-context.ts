import { createActorContext } from '@xstate/react';
import { storyWizardMachine } from '@/machines/story/story-wizard.machine';

/** The story page's wizard actor, shared by the stepper and every step's section. */
export const StoryActorContext = createActorContext(storyWizardMachine);
