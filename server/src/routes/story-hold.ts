import type { FastifyInstance } from 'fastify';
import { storyQuote } from '../../../src/lib/story-quote.ts';
import type { HoldProject } from '../db/credit-holds.ts';
import { findOwnStory, lockOwnStory } from '../db/stories.ts';
import { HttpError } from './http.ts';
import { projectHoldRoutes } from './project-hold.ts';
import type { RouteDeps } from './route-deps.ts';
import { checkStoryboard } from './story-input.ts';

/**
 * One quote for a whole film (issue 21 item 6, README "One quote for a whole project"): POST
 * story/{id}/quote, POST and DELETE story/{id}/hold (project-hold.ts), priced by storyQuote (the
 * steps' own prices). The story's parts draw from the hold as they start (story.ts passes it to
 * chargeJobs); joining the film or deleting the story closes it.
 */

export const storyProject = (storyId: string): HoldProject => ({ kind: 'story', id: storyId });

export async function storyHoldRoutes(app: FastifyInstance, deps: RouteDeps): Promise<void> {
  await projectHoldRoutes(app, deps, {
    kind: 'story',
    path: 'story',
    idField: 'story_id',
    notFound: () => new HttpError(404, 'Failed to find a Story with this id'),
    nothingHeld: 'This story holds no credits.',
    nothingToHold: 'Nothing to hold: every part of this story is made and up to date.',
    find: findOwnStory,
    // The story's lock first (then its owner's, then the hold's: every path takes them in this order).
    lock: lockOwnStory,
    quote: async (tx, story) => {
      const { board, statusOf } = await checkStoryboard(tx, story.id, story.storyboard);
      return storyQuote({ style: story.style, aspect_ratio: story.aspect_ratio }, board, statusOf);
    },
  });
}
