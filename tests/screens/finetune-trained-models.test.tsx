import { render as renderBare } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppProviders } from '@/app/app';
import { FinetunesProvider } from '@/components/finetune/finetunes-context';
import { useTrainedModelOptions } from '@/components/finetune/trained-models';
import type { ToolSlug } from '@/config/tools';
import { disabledTelemetry } from '@/services/telemetry';
import { addFinetune, finetuneHandlers, resetFakeFinetunes } from '../msw/finetune';
import { server } from '../msw/server';
import { fakeMedia } from '../msw/media';
import { render, screen, testSessionInput, waitFor } from '../test-utils';
import { alice, signedInAs } from './session-helpers';

beforeEach(() => {
  server.use(...finetuneHandlers);
});
afterEach(() => {
  resetFakeFinetunes();
});

/** Shows what the hook gives a tool page, one list item per option. */
function Probe({ tool }: { tool: ToolSlug }) {
  const options = useTrainedModelOptions(tool);
  return (
    <ul aria-label={tool}>
      {options.map((option) => (
        <li key={option.value}>{JSON.stringify(option)}</li>
      ))}
    </ul>
  );
}

function renderWithProvider() {
  // The app's own providers (session and jobs), without the test wrapper's second session.
  return renderBare(
    <AppProviders telemetry={disabledTelemetry} sessionInput={testSessionInput('/')} mantineEnv="test">
      <FinetunesProvider>
        <Probe tool="text-to-image" />
        <Probe tool="image-to-image" />
        <Probe tool="face-swap" />
      </FinetunesProvider>
    </AppProviders>,
  );
}

const optionsOf = (tool: string) =>
  Array.from(screen.getByRole('list', { name: tool }).querySelectorAll('li')).map((item) => JSON.parse(item.textContent ?? '{}'));

describe('useTrainedModelOptions', () => {
  it('offers each image tool only the ready models made for it', async () => {
    addFinetune({ id: 'flux', name: 'Watercolour', option: 'FluxFinetune' });
    addFinetune({ id: 'pro', name: 'Portrait', option: 'FluxProFinetune' });
    addFinetune({ id: 'learning', name: 'Still learning', option: 'FluxFinetune', status: 'training' });
    addFinetune({ id: 'broken', name: 'Broken', option: 'FluxFinetune', status: 'failed' });
    addFinetune({ id: 'kontext', name: 'Sketchify', option: 'FluxKontextFinetune' });
    addFinetune({ id: 'kontext-learning', name: 'Later', option: 'FluxKontextFinetune', status: 'training' });
    await signedInAs(alice);
    renderWithProvider();

    await waitFor(() => expect(optionsOf('text-to-image')).toHaveLength(2), { timeout: 5000 });
    // Newest first.
    expect(optionsOf('text-to-image')).toEqual([
      { value: 'finetune:pro', label: 'Portrait (your model)', required_credits: 8, baseModel: 'FluxFinetuned', finetuneId: 'pro' },
      { value: 'finetune:flux', label: 'Watercolour (your model)', required_credits: 8, baseModel: 'FluxFinetuned', finetuneId: 'flux' },
    ]);
    expect(optionsOf('image-to-image')).toEqual([
      {
        value: 'finetune:kontext',
        label: 'Sketchify (your model)',
        required_credits: 8,
        baseModel: 'FluxKontextFinetuned',
        finetuneId: 'kontext',
      },
    ]);
    expect(optionsOf('face-swap')).toEqual([]);
  });

  it('offers nothing to a signed-out visitor, and never asks for the list', async () => {
    addFinetune({ id: 'flux', option: 'FluxFinetune' });
    renderWithProvider();
    // Time for the session to settle signed out.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(optionsOf('text-to-image')).toEqual([]);
    expect(fakeMedia.calls).not.toContain('GET finetune');
  });

  it('returns an empty list where no provider is mounted', () => {
    render(<Probe tool="text-to-image" />);
    expect(optionsOf('text-to-image')).toEqual([]);
  });
});
