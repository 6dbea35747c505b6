import { createActorContext } from '@xstate/react';
import { sessionMachine } from '@/machines/session/session.machine';

/**
 * One session actor for the whole app (SPEC §4): the single owner of who is signed in. Screens
 * read it through the selectors of `session.selectors.ts` and send it events; the app provides it
 * with the session input built from the environment.
 */
export const SessionActorContext = createActorContext(sessionMachine);
