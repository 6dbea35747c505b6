import { waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { generationJobMachine } from '@/machines/generation-job/generation-job.machine';
import { addMedia, fakeMedia } from '../../msw/media';
import { buildJobInput } from './generation-job.fixtures';

/**
 * Issue 19 item 5: when a hidden page is shown again, every paused job polls at once — through the
 * real job machine and the real media service, they go as one request (GET media/processing-status
 * ?ids=…, answered by the fake API), not one each.
 */
describe('jobs of a page shown again', () => {
  it('poll in one request, and each job gets its own answer', async () => {
    const jobs = [addMedia({ status: 'processing_source' }), addMedia({ status: 'processing_source' }), addMedia({ status: 'queue_source' })];
    const actors = jobs.map((media, index) =>
      createActor(generationJobMachine, {
        input: buildJobInput({ localId: `job-${index}`, mediaId: media.id, fields: null, hidden: true }),
      }).start(),
    );
    for (const actor of actors) expect(actor.getSnapshot().matches({ polling: 'paused' })).toBe(true);
    const before = fakeMedia.calls.length;

    // As the jobs registry forwards the page's visibility: to every live job, one after the other.
    for (const actor of actors) actor.send({ type: 'job.visibility', hidden: false });

    // Each job has its answer once its status is the fake API's (the third was queued). Not "all
    // three waiting at once": a job whose next poll comes early is polling again by the time a
    // loaded machine looks (a CI run).
    await waitFor(() => {
      expect(actors.map((actor) => actor.getSnapshot().context.status)).toEqual(['processing_source', 'processing_source', 'processing_source']);
    }, { timeout: 15_000 });
    const calls = fakeMedia.calls.slice(before);
    expect(calls.every((call) => call === 'GET media/processing-status')).toBe(true);
    // One request per job would be three by now; together they are one (two if a second round began).
    expect(calls.length).toBeGreaterThanOrEqual(1);
    expect(calls.length).toBeLessThan(jobs.length);
    for (const [index, actor] of actors.entries()) expect(actor.getSnapshot().context.mediaId).toBe(jobs[index]!.id);
    for (const actor of actors) actor.stop();
  });
});
