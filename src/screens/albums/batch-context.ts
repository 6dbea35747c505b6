import { createActorContext } from '@xstate/react';
import { batchMachine } from '@/machines/batch/batch.machine';

/** The album page's batch actor, shared by its sections (pictures, board, videos, join, delete). */
export const BatchActorContext = createActorContext(batchMachine);
