import { render as renderBare } from '@testing-library/react';
import { useSelector } from '@xstate/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppProviders } from '@/app/app';
import { FinetunesProvider, useFinetunesRef } from '@/components/finetune/finetunes-context';
import { disabledTelemetry } from '@/services/telemetry';
import { STORAGE_KEYS } from '@/config/limits';
import { FINETUNE_TOOL } from '@/config/finetune';
import type { StoredJob } from '@/machines/jobs/jobs.machine';
import { writeStored } from '@/services/storage';
import { addFinetune, fakeFinetunes, finetuneHandlers, resetFakeFinetunes } from '../msw/finetune';
import { fakeMedia } from '../msw/media';
import { server } from '../msw/server';
import { renderApp, screen, testSessionInput, waitFor } from '../test-utils';
import { PAGE_LOAD, setUpJobTests } from './generation-helpers';
import { alice, signedInAs } from './session-helpers';

setUpJobTests();

beforeEach(() => {
  server.use(...finetuneHandlers);
});
afterEach(() => {
  resetFakeFinetunes();
  // Back to jsdom's own (prototype) getter.
  Reflect.deleteProperty(document, 'visibilityState');
});

const setVisibility = (state: DocumentVisibilityState) => {
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state });
  document.dispatchEvent(new Event('visibilitychange'));
};

/** Says whether the app's trained-models actor knows the tab is hidden. */
function HiddenProbe() {
  const finetunes = useFinetunesRef();
  const hidden = useSelector(finetunes ?? undefined, (snapshot) => snapshot?.context.hidden);
  return <p>{hidden ? 'tab hidden' : 'tab shown'}</p>;
}

/** A training the jobs panel remembers from an earlier visit (finished: nothing to poll). */
const rememberedTraining = (mediaId: string): StoredJob => ({
  localId: 'job-training',
  mediaId,
  tool: FINETUNE_TOOL,
  toolTitle: 'LoRA Finetune',
  option: 'FluxFinetune',
  optionLabel: 'Flux',
  endpoint: 'finetune',
  cost: 40,
  idempotencyKey: 'training-key',
  fields: null,
  assetId: null,
  createdAt: Date.now() - 60_000,
  outcome: 'succeeded',
  finishedAt: Date.now() - 1000,
  refunded: false,
  error: null,
});

// Issue 17: each tool page asked for the list twice when the jobs panel remembered a training.
describe('the trained-models list on a tool page', () => {
  it('is asked for once per page, also when the jobs panel remembers a training', async () => {
    const model = addFinetune({ id: 'flux', name: 'Watercolour', option: 'FluxFinetune' });
    const person = await signedInAs(alice);
    writeStored(STORAGE_KEYS.jobs, { [person.sub]: [rememberedTraining(model.media_id)] });
    // Signed in and the jobs panel restored first, then the tool page is opened from the menu.
    const { router } = renderApp('/');
    await screen.findByRole('button', { name: 'Jobs, 0 running' }, PAGE_LOAD);
    await router.navigate('/ai-image/text-to-image');
    expect(await screen.findByRole('heading', { level: 1, name: 'Text to Image' }, PAGE_LOAD)).toBeInTheDocument();
    // The page's model list offers the trained model once the list has arrived.
    await waitFor(() => expect(fakeFinetunes.listCalls).toBeGreaterThan(0), PAGE_LOAD);
    await waitFor(() => expect(fakeMedia.calls).toContain('GET media'), PAGE_LOAD);
    expect(fakeMedia.calls.filter((call) => call === 'GET finetune')).toHaveLength(1);
  });
});

describe('the trained-models list and the tab', () => {
  it('is told when the tab is hidden and shown again (its training refresh pauses meanwhile)', async () => {
    renderBare(
      <AppProviders telemetry={disabledTelemetry} sessionInput={testSessionInput('/')} mantineEnv="test">
        <FinetunesProvider>
          <HiddenProbe />
        </FinetunesProvider>
      </AppProviders>,
    );
    expect(screen.getByText('tab shown')).toBeInTheDocument();
    setVisibility('hidden');
    expect(await screen.findByText('tab hidden')).toBeInTheDocument();
    setVisibility('visible');
    expect(await screen.findByText('tab shown')).toBeInTheDocument();
  });
});
