import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { promptHelperMachine, toPromptHelperRequest } from '@/machines/prompt-helper/prompt-helper.machine';
import type { PromptHelpRequest, PromptHelperEmitted } from '@/machines/prompt-helper/prompt-helper.machine';
import { selectPromptHelperBusy, selectPromptHelperError } from '@/machines/prompt-helper/prompt-helper.selectors';
import { deferred } from '../generation-job/generation-job.fixtures';

const start = (ask: (request: PromptHelpRequest) => Promise<string>) => {
  const helper = vi.fn(ask);
  const machine = promptHelperMachine.provide({
    actors: { askHelper: fromPromise<string, PromptHelpRequest>(({ input }) => helper(input)) },
  });
  const actor = createActor(machine);
  const suggested: PromptHelperEmitted[] = [];
  actor.on('prompt.suggested', (event) => suggested.push(event));
  actor.start();
  return { actor, helper, suggested };
};

describe('prompt helper machine', () => {
  it('asks, then emits the suggestion and remembers it', async () => {
    const { actor, helper, suggested } = start(async () => 'A red fox in fresh snow, morning light');
    actor.send({ type: 'prompt.help', option: 'SuggestPrompt', prompt: 'fox', mode: 'image' });
    expect(selectPromptHelperBusy(actor.getSnapshot())).toBe(true);
    expect(actor.getSnapshot().context.option).toBe('SuggestPrompt');
    await waitFor(actor, (snapshot) => snapshot.matches('idle'));
    expect(helper).toHaveBeenCalledWith({ option: 'SuggestPrompt', prompt: 'fox', mode: 'image', image: undefined });
    expect(suggested).toEqual([{ type: 'prompt.suggested', prompt: 'A red fox in fresh snow, morning light', option: 'SuggestPrompt' }]);
    expect(actor.getSnapshot().context.lastPrompt).toBe('A red fox in fresh snow, morning light');
  });

  it('keeps a failure as an error, emits nothing, and can dismiss it', async () => {
    const { actor, suggested } = start(async () => {
      throw new Error('Image2Prompt needs an image_url or image_file');
    });
    actor.send({ type: 'prompt.help', option: 'Image2Prompt', prompt: '', mode: 'image' });
    await waitFor(actor, (snapshot) => snapshot.matches('idle'));
    expect(selectPromptHelperError(actor.getSnapshot())).toBe('Image2Prompt needs an image_url or image_file');
    expect(suggested).toEqual([]);
    actor.send({ type: 'prompt.dismissError' });
    expect(selectPromptHelperError(actor.getSnapshot())).toBeNull();
  });

  it('a new request replaces one still running; a new request clears the old error', async () => {
    const first = deferred<string>();
    let calls = 0;
    const { actor, suggested } = start(() => (++calls === 1 ? first.promise : Promise.resolve('second')));
    actor.send({ type: 'prompt.help', option: 'InspireMe', prompt: '', mode: 'music' });
    actor.send({ type: 'prompt.help', option: 'RefinePrompt', prompt: 'a song', mode: 'music' });
    await waitFor(actor, (snapshot) => snapshot.matches('idle'));
    first.resolve('first');
    await Promise.resolve();
    expect(suggested.map((event) => event.prompt)).toEqual(['second']);
  });
});

describe('toPromptHelperRequest (SPEC §5: URL when there is one, the file when local)', () => {
  const base = { option: 'Image2Prompt' as const, prompt: '', mode: 'image' as const };
  it.each([
    [{}, {}],
    [{ image: { url: 'u' } }, { imageUrl: 'u' }],
    [{ image: { url: 'u', kind: 'video' as const } }, { videoUrl: 'u' }],
    [{ image: { file: new File(['x'], 'a.png', { type: 'image/png' }) } }, { imageFile: expect.any(File) as unknown }],
    [{ image: { file: new File(['x'], 'a.mp4', { type: 'video/mp4' }) } }, { videoFile: expect.any(File) as unknown }],
  ])('%j', (extra, expected) => {
    expect(toPromptHelperRequest({ ...base, ...extra })).toEqual({ ...base, ...expected });
  });
});
