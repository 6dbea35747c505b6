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

    await waitFor(() => {
      for (const actor of actors) expect(actor.getSnapshot().matches({ polling: 'waiting' })).toBe(true);
    }, { timeout: 5_000 });
    expect(fakeMedia.calls.slice(before)).toEqual(['GET media/processing-status']);
    for (const [index, actor] of actors.entries()) expect(actor.getSnapshot().context.mediaId).toBe(jobs[index]!.id);
    expect(actors.map((actor) => actor.getSnapshot().context.status)).toEqual(['processing_source', 'processing_source', 'processing_source']);
    for (const actor of actors) actor.stop();
  });
});
