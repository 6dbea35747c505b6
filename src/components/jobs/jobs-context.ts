import { createActorContext } from '@xstate/react';
import { jobsMachine } from '@/machines/jobs/jobs.machine';

/**
 * The one jobs registry of the app (issue 4): it spawns an actor per generation job, keeps the
 * live and recent ones, and resumes them after a reload. The tool pages, the jobs panel and the
 * tab title all read this actor, so no job is ever polled twice.
 */
export const JobsActorContext = createActorContext(jobsMachine);
