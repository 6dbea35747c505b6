import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { ApiError } from '@/services/api-error';
import { FINETUNES_TRAINING_REFRESH_MS, finetunesMachine } from '@/machines/finetunes/finetunes.machine';
import type { Finetune } from '@/machines/finetunes/finetunes.machine';
import {
  selectFinetuneJobMediaIds,
  selectFinetunes,
  selectFinetunesError,
  selectFinetunesStatus,
  trainedModelChoices,
} from '@/machines/finetunes/finetunes.selectors';
import type { JobsSnapshot } from '@/machines/jobs/jobs.selectors';
import { deferred } from '../generation-job/generation-job.fixtures';

const finetune = (overrides: Partial<Finetune> = {}): Finetune => ({
  id: 'ft-1',
  name: 'My style',
  option: 'FluxFinetune',
  base_model: 'FluxFinetuned',
  trigger_word: '',
  status: 'ready',
  media_id: 'media-ft-1',
  preview_url: null,
  image_count: 5,
  created_at: '2025-01-01T10:00:00.000Z',
  ...overrides,
});

/** Starts the machine with a scripted loader: each call answers with the next of `answers`. */
const start = (load: () => Promise<Finetune[]>) => {
  const loader = vi.fn(load);
  const machine = finetunesMachine.provide({
    actors: { loadFinetunes: fromPromise<Finetune[]>(() => loader()) },
  });
  return { actor: createActor(machine).start(), loader };
};

const ids = (items: readonly Finetune[]) => items.map((item) => item.id);
const macrotask = () => new Promise((resolve) => setTimeout(resolve, 0));

afterEach(() => {
  vi.useRealTimers();
});

describe('the trained models (finetunes machine)', () => {
  it('waits signed out, loads on sign-in and lists the models newest first', async () => {
    const { actor, loader } = start(async () => [
      finetune({ id: 'old', created_at: '2025-01-01T09:00:00.000Z' }),
      finetune({ id: 'new', created_at: '2025-01-02T09:00:00.000Z' }),
    ]);
    expect(selectFinetunesStatus(actor.getSnapshot())).toBe('signedOut');
    expect(loader).not.toHaveBeenCalled();

    actor.send({ type: 'finetunes.userChanged', userId: 'alice' });
    expect(selectFinetunesStatus(actor.getSnapshot())).toBe('loading');
    await waitFor(actor, (snapshot) => selectFinetunesStatus(snapshot) === 'ready');
    const listed = selectFinetunes(actor.getSnapshot());
    expect(ids(listed)).toEqual(['new', 'old']);
    // The same array while the list does not change.
    expect(selectFinetunes(actor.getSnapshot())).toBe(listed);
    expect(loader).toHaveBeenCalledTimes(1);
  });

  it('ignores the same person again, starts over for another, and clears on sign-out', async () => {
    let calls = 0;
    const { actor, loader } = start(async () => [finetune({ id: `list-${++calls}` })]);
    actor.send({ type: 'finetunes.userChanged', userId: 'alice' });
    await waitFor(actor, (snapshot) => selectFinetunesStatus(snapshot) === 'ready');
    actor.send({ type: 'finetunes.userChanged', userId: 'alice' });
    expect(selectFinetunesStatus(actor.getSnapshot())).toBe('ready');
    expect(loader).toHaveBeenCalledTimes(1);

    actor.send({ type: 'finetunes.userChanged', userId: 'bob' });
    // Bob never sees Alice's models, not even while his load.
    expect(selectFinetunes(actor.getSnapshot())).toEqual([]);
    await waitFor(actor, (snapshot) => selectFinetunesStatus(snapshot) === 'ready');
    expect(ids(selectFinetunes(actor.getSnapshot()))).toEqual(['list-2']);

    actor.send({ type: 'finetunes.userChanged', userId: null });
    expect(selectFinetunesStatus(actor.getSnapshot())).toBe('signedOut');
    expect(selectFinetunes(actor.getSnapshot())).toEqual([]);
    expect(actor.getSnapshot().context.userId).toBeNull();
  });

  it('a load answered after sign-out never lands', async () => {
    const answer = deferred<Finetune[]>();
    const { actor } = start(() => answer.promise);
    actor.send({ type: 'finetunes.userChanged', userId: 'alice' });
    actor.send({ type: 'finetunes.userChanged', userId: null });
    answer.resolve([finetune()]);
    await macrotask();
    expect(selectFinetunesStatus(actor.getSnapshot())).toBe('signedOut');
    expect(selectFinetunes(actor.getSnapshot())).toEqual([]);
  });

  it('keeps the list shown while refreshing; a refresh while loading replaces the request', async () => {
    const first = deferred<Finetune[]>();
    const second = deferred<Finetune[]>();
    const third = deferred<Finetune[]>();
    const answers = [Promise.resolve([finetune({ id: 'a' })]), first.promise, second.promise, third.promise];
    const { actor } = start(() => answers.shift() ?? Promise.reject(new Error('no more answers')));
    actor.send({ type: 'finetunes.userChanged', userId: 'alice' });
    await waitFor(actor, (snapshot) => selectFinetunesStatus(snapshot) === 'ready');

    actor.send({ type: 'finetunes.refresh' });
    expect(selectFinetunesStatus(actor.getSnapshot())).toBe('loading');
    expect(ids(selectFinetunes(actor.getSnapshot()))).toEqual(['a']);
    actor.send({ type: 'finetunes.refresh' });
    second.resolve([finetune({ id: 'b' })]);
    await waitFor(actor, (snapshot) => selectFinetunesStatus(snapshot) === 'ready');
    first.resolve([finetune({ id: 'stale' })]);
    await macrotask();
    expect(ids(selectFinetunes(actor.getSnapshot()))).toEqual(['b']);
  });

  it('says why a load failed, keeps the list, and loads again on refresh', async () => {
    const answers: (() => Promise<Finetune[]>)[] = [
      async () => [finetune({ id: 'kept' })],
      async () => {
        throw new ApiError('The models are resting.', { kind: 'http', status: 503 });
      },
      async () => [finetune({ id: 'kept' }), finetune({ id: 'more', created_at: '2025-01-03T00:00:00.000Z' })],
    ];
    const { actor } = start(() => (answers.shift() ?? (async () => []))());
    actor.send({ type: 'finetunes.userChanged', userId: 'alice' });
    await waitFor(actor, (snapshot) => selectFinetunesStatus(snapshot) === 'ready');
    actor.send({ type: 'finetunes.refresh' });
    await waitFor(actor, (snapshot) => selectFinetunesStatus(snapshot) === 'failed');
    expect(selectFinetunesError(actor.getSnapshot())).toBe('The models are resting.');
    expect(ids(selectFinetunes(actor.getSnapshot()))).toEqual(['kept']);

    actor.send({ type: 'finetunes.refresh' });
    await waitFor(actor, (snapshot) => selectFinetunesStatus(snapshot) === 'ready');
    expect(selectFinetunesError(actor.getSnapshot())).toBeNull();
    expect(ids(selectFinetunes(actor.getSnapshot()))).toEqual(['more', 'kept']);
  });

  it('loads again once for a training job it does not list yet, never for a known one', async () => {
    const { actor, loader } = start(async () => [finetune({ media_id: 'listed-job' })]);
    actor.send({ type: 'finetunes.jobsSeen', mediaIds: ['new-job'] });
    // Signed out: nothing to load.
    expect(loader).not.toHaveBeenCalled();
    actor.send({ type: 'finetunes.userChanged', userId: 'alice' });
    await waitFor(actor, (snapshot) => selectFinetunesStatus(snapshot) === 'ready');
    expect(loader).toHaveBeenCalledTimes(1);

    actor.send({ type: 'finetunes.jobsSeen', mediaIds: ['listed-job'] });
    expect(selectFinetunesStatus(actor.getSnapshot())).toBe('ready');

    actor.send({ type: 'finetunes.jobsSeen', mediaIds: ['listed-job', 'new-job'] });
    expect(selectFinetunesStatus(actor.getSnapshot())).toBe('loading');
    await waitFor(actor, (snapshot) => selectFinetunesStatus(snapshot) === 'ready');
    expect(loader).toHaveBeenCalledTimes(2);

    // The server still does not list it: asked once, not again and again.
    actor.send({ type: 'finetunes.jobsSeen', mediaIds: ['listed-job', 'new-job'] });
    expect(selectFinetunesStatus(actor.getSnapshot())).toBe('ready');
    expect(loader).toHaveBeenCalledTimes(2);
  });

  it('asks once when the registry names its jobs while the first load is on its way and the answer lists them', async () => {
    const answer = deferred<Finetune[]>();
    const { actor, loader } = start(() => answer.promise);
    // A page opening: who is signed in, then the registry's restored training jobs.
    actor.send({ type: 'finetunes.userChanged', userId: 'alice' });
    actor.send({ type: 'finetunes.jobsSeen', mediaIds: ['media-ft-1'] });
    answer.resolve([finetune({ media_id: 'media-ft-1' })]);
    await waitFor(actor, (snapshot) => selectFinetunesStatus(snapshot) === 'ready');
    await macrotask();
    expect(loader).toHaveBeenCalledTimes(1);
  });

  it('asks once more when a job seen during a load is missing from its answer, and not again after that', async () => {
    const first = deferred<Finetune[]>();
    const answers = [first.promise, Promise.resolve([finetune({ media_id: 'new-job' })])];
    const { actor, loader } = start(() => answers.shift() ?? Promise.resolve([]));
    actor.send({ type: 'finetunes.userChanged', userId: 'alice' });
    actor.send({ type: 'finetunes.jobsSeen', mediaIds: ['new-job'] });
    // The first answer predates the new job.
    first.resolve([]);
    await waitFor(actor, (snapshot) => selectFinetunesStatus(snapshot) === 'ready' && snapshot.context.items.length === 1);
    expect(loader).toHaveBeenCalledTimes(2);
    await macrotask();
    expect(loader).toHaveBeenCalledTimes(2);
  });

  it('does not ask while the tab is hidden; the refresh due meanwhile is made once it is shown', async () => {
    vi.useFakeTimers();
    const answers = [[finetune({ status: 'training' })], [finetune({ status: 'ready' })]];
    const { actor, loader } = start(async () => answers.shift() ?? []);
    actor.send({ type: 'finetunes.userChanged', userId: 'alice' });
    await vi.advanceTimersByTimeAsync(0);
    actor.send({ type: 'finetunes.visibility', hidden: true });
    await vi.advanceTimersByTimeAsync(FINETUNES_TRAINING_REFRESH_MS * 5);
    expect(loader).toHaveBeenCalledTimes(1);
    expect(selectFinetunesStatus(actor.getSnapshot())).toBe('ready');

    actor.send({ type: 'finetunes.visibility', hidden: false });
    expect(loader).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(0);
    expect(selectFinetunes(actor.getSnapshot())[0]?.status).toBe('ready');
    await vi.advanceTimersByTimeAsync(FINETUNES_TRAINING_REFRESH_MS * 3);
    expect(loader).toHaveBeenCalledTimes(2);
  });

  it('asks again every FINETUNES_TRAINING_REFRESH_MS while a model trains, and stops once none does', async () => {
    vi.useFakeTimers();
    const answers = [
      [finetune({ status: 'training' })],
      [finetune({ status: 'ready', preview_url: 'http://localhost/api/files/p.png' })],
    ];
    const { actor, loader } = start(async () => answers.shift() ?? []);
    actor.send({ type: 'finetunes.userChanged', userId: 'alice' });
    await vi.advanceTimersByTimeAsync(0);
    expect(selectFinetunesStatus(actor.getSnapshot())).toBe('ready');
    await vi.advanceTimersByTimeAsync(FINETUNES_TRAINING_REFRESH_MS - 1);
    expect(loader).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(loader).toHaveBeenCalledTimes(2);
    expect(selectFinetunes(actor.getSnapshot())[0]?.status).toBe('ready');
    await vi.advanceTimersByTimeAsync(FINETUNES_TRAINING_REFRESH_MS * 3);
    expect(loader).toHaveBeenCalledTimes(2);
  });
});

describe('trained models as model choices', () => {
  const models = [
    finetune({ id: 'flux', option: 'FluxFinetune', base_model: 'FluxFinetuned', name: 'Flux ready' }),
    finetune({ id: 'pro', option: 'FluxProFinetune', base_model: 'FluxFinetuned', name: 'Pro ready' }),
    finetune({ id: 'flux-training', option: 'FluxFinetune', status: 'training', name: 'Still training' }),
    finetune({ id: 'flux-failed', option: 'FluxFinetune', status: 'failed', name: 'Broken' }),
    finetune({ id: 'kontext', option: 'FluxKontextFinetune', base_model: 'FluxKontextFinetuned', name: 'Sketchify' }),
    finetune({ id: 'kontext-training', option: 'FluxKontextFinetune', base_model: 'FluxKontextFinetuned', status: 'training' }),
  ];

  it('offers Text to Image only the ready Flux and Flux Pro models, at their base model’s 8 credits', () => {
    expect(trainedModelChoices(models, 'text-to-image')).toEqual([
      { value: 'finetune:flux', label: 'Flux ready (your model)', required_credits: 8, baseModel: 'FluxFinetuned', finetuneId: 'flux' },
      { value: 'finetune:pro', label: 'Pro ready (your model)', required_credits: 8, baseModel: 'FluxFinetuned', finetuneId: 'pro' },
    ]);
  });

  it('offers Image to Image only the ready Kontext models', () => {
    expect(trainedModelChoices(models, 'image-to-image')).toEqual([
      {
        value: 'finetune:kontext',
        label: 'Sketchify (your model)',
        required_credits: 8,
        baseModel: 'FluxKontextFinetuned',
        finetuneId: 'kontext',
      },
    ]);
  });

  it('offers nothing on the other tools', () => {
    expect(trainedModelChoices(models, 'face-swap')).toEqual([]);
    expect(trainedModelChoices(models, 'finetune')).toEqual([]);
  });
});

describe('the jobs registry’s training jobs', () => {
  const entry = (tool: string, mediaId: string | null) => ({ localId: `job-${mediaId}`, ref: null, stored: { tool, mediaId } });

  it('names the training jobs the server has answered, as one value', () => {
    const snapshot = {
      context: { jobs: [entry('finetune', 'm2'), entry('text-to-image', 'm9'), entry('finetune', null), entry('finetune', 'm1')] },
    } as unknown as JobsSnapshot;
    expect(selectFinetuneJobMediaIds(snapshot)).toBe('m2,m1');
  });
});
