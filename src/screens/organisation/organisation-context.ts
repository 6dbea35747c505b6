import { createActorContext } from '@xstate/react';
import { organisationMachine } from '@/machines/organisation/organisation.machine';

/** The organisation page's actor, shared by its sections. */
export const OrganisationActorContext = createActorContext(organisationMachine);
