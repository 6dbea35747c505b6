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

    // Each job has its answer once its status is the fake API's (the third was queued). Watched on
    // every snapshot, not looked for afterwards: on a loaded machine a job's later polls had already
    // finished it (success_image) by the time a waitFor looked (a CI run), and a look at "all three
    // waiting at once" failed the same way. The calls are counted at the moment the last job had its
    // answer, before any later round of polls.
    const answered = actors.map(() => false);
    const seen: { calls: string[] | null } = { calls: null };
    const subscriptions = actors.map((actor, index) =>
      actor.subscribe((snapshot) => {
        if (snapshot.context.status !== 'processing_source' || answered[index]) return;
        answered[index] = true;
        if (answered.every(Boolean)) seen.calls = fakeMedia.calls.slice(before);
      }),
    );
    await waitFor(() => expect(seen.calls).not.toBeNull(), { timeout: 15_000 });
    for (const subscription of subscriptions) subscription.unsubscribe();
    const calls = seen.calls ?? [];
    expect(calls.every((call) => call === 'GET media/processing-status')).toBe(true);
    // One request per job would be three by now; together they are one (two if the batch was split).
    expect(calls.length).toBeGreaterThanOrEqual(1);
    expect(calls.length).toBeLessThan(jobs.length);
    for (const [index, actor] of actors.entries()) expect(actor.getSnapshot().context.mediaId).toBe(jobs[index]!.id);
    for (const actor of actors) actor.stop();
  });
});
