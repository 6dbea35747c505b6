import type { FastifyInstance } from 'fastify';
import { GENERATION_STATUSES } from '../../../src/config/enums.ts';
import { MESSAGES } from '../../../src/config/messages.ts';
import { albumQuote, type ClipVideo } from '../../../src/lib/album-quote.ts';
import type { HoldProject } from '../db/credit-holds.ts';
import { albumClipJobs, findOwnBatch, lockOwnBatch } from '../db/batch.ts';
import { isLive } from '../db/media.ts';
import { HttpError } from './http.ts';
import { projectHoldRoutes } from './project-hold.ts';
import type { RouteDeps } from './route-deps.ts';

/**
 * One quote for a whole album (issue 21 item 6, README "One quote for a whole project"): POST
 * batch/{id}/quote, POST and DELETE batch/{id}/hold (project-hold.ts), priced by albumQuote (the
 * price POST batch/{id}/videos charges per clip, plus the join). The album's clips draw from the
 * hold as they start (batch.ts passes it to chargeJobs); joining the album or deleting it closes it.
 */

export const albumProject = (batchId: string): HoldProject => ({ kind: 'album', id: batchId });

const SUCCESS: ReadonlySet<string> = new Set(GENERATION_STATUSES.success);

const clipState = (status: string): ClipVideo['state'] => (SUCCESS.has(status) ? 'made' : isLive(status) ? 'running' : 'ended');

export async function batchHoldRoutes(app: FastifyInstance, deps: RouteDeps): Promise<void> {
  await projectHoldRoutes(app, deps, {
    kind: 'album',
    path: 'batch',
    idField: 'batch_id',
    // SPEC §8's words, as every other batch call says it.
    notFound: () => new HttpError(404, MESSAGES.batchNotFound.message),
    nothingHeld: 'This album holds no credits.',
    nothingToHold: 'Nothing to hold: every clip of this album is made and joining is free.',
    find: findOwnBatch,
    lock: lockOwnBatch,
    quote: async (tx, album) => {
      const jobs = await albumClipJobs(tx, album.video_media_ids);
      // The last generation's job of each clip (jobs are in the order they were made).
      const videos = new Map<string, ClipVideo>();
      for (const job of jobs) if (job.clip_id) videos.set(job.clip_id, { option: job.option ?? '', state: clipState(job.status) });
      const concat = album.concat_media_id ? await albumClipJobs(tx, [album.concat_media_id]) : [];
      const joined = concat.some((job) => clipState(job.status) !== 'ended');
      return albumQuote(album.batch_type, album.script_board?.clips ?? [], (clipId) => videos.get(clipId), joined);
    },
  });
}
