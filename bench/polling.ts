/**
 * How hard 50 running jobs poll the server: the real generationJob machine (its real back-off
 * with full jitter, JOB_POLL) on a simulated clock, with the processing-status call counted
 * instead of sent. Ten simulated minutes while visible, then five while the page is hidden.
 */
import { createActor, fromPromise, SimulatedClock } from 'xstate';
import { generationJobMachine } from '@/machines/generation-job/generation-job.machine';
import type { Media, ProcessingStatus } from '@/services/schemas/media';

export interface PollingFigures {
  jobs: number;
  visibleMinutes: number;
  requestsPerMinuteVisible: number;
  /** The steady state: the last five visible minutes, after the back-off has grown. */
  requestsPerMinuteSteady: number;
  hiddenMinutes: number;
  requestsWhileHidden: number;
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

export async function measurePolling(jobs = 50, visibleMinutes = 10, hiddenMinutes = 5): Promise<PollingFigures> {
  const clock = new SimulatedClock();
  const requestTimes: number[] = [];
  const machine = generationJobMachine.provide({
    actors: {
      pollStatus: fromPromise<ProcessingStatus, { mediaId: string }>(async ({ input }) => {
        requestTimes.push(clock.now());
        return { id: input.mediaId, status: 'processing_source', progress: 50, items: [], updated_at: new Date(clock.now()).toISOString(), held: false, queue_position: null };
      }),
      fetchMedia: fromPromise<Media, { mediaId: string }>(() => Promise.reject(new Error('a running job is never fetched here'))),
    },
  });
  const actors = Array.from({ length: jobs }, (_, index) =>
    createActor(machine, {
      clock,
      input: {
        localId: `bench-${index}`,
        tool: 'text-to-image',
        toolTitle: 'Text to Image',
        option: 'Seedream',
        optionLabel: 'Seedream',
        endpoint: 'image/text-2-image',
        cost: 4,
        fields: null,
        assetId: null,
        idempotencyKey: `bench-key-${index}`,
        createdAt: 0,
        user: { attributes: { user_groups: [] } },
        credit: 1000,
        mediaId: `media-${index}`,
      },
    }).start(),
  );
  const stepMs = 100;
  const advance = async (ms: number) => {
    for (let elapsed = 0; elapsed < ms; elapsed += stepMs) {
      clock.increment(stepMs);
      await flush();
    }
  };
  await flush();
  await advance(visibleMinutes * 60_000);
  const visibleEnd = clock.now();
  const visibleRequests = requestTimes.length;
  const steadyFrom = visibleEnd - 5 * 60_000;
  const steadyRequests = requestTimes.filter((time) => time >= steadyFrom).length;

  actors.forEach((actor) => actor.send({ type: 'job.visibility', hidden: true }));
  await flush();
  await advance(hiddenMinutes * 60_000);
  const hiddenRequests = requestTimes.filter((time) => time > visibleEnd).length;
  actors.forEach((actor) => actor.stop());
  return {
    jobs,
    visibleMinutes,
    requestsPerMinuteVisible: visibleRequests / visibleMinutes,
    requestsPerMinuteSteady: steadyRequests / 5,
    hiddenMinutes,
    requestsWhileHidden: hiddenRequests,
  };
}
