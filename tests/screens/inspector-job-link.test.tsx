import { describe, expect, it } from 'vitest';
import { JobRow } from '@/components/jobs/job-row';
import type { JobEntry } from '@/components/jobs/job-view';
import { render, screen } from '../test-utils';
import { alice, signedInAs } from './session-helpers';

const entry: JobEntry = {
  localId: 'job-42',
  ref: null,
  stored: {
    localId: 'job-42',
    mediaId: 'media-42',
    tool: 'text-to-image',
    toolTitle: 'Text to Image',
    option: 'Seedream',
    optionLabel: 'Seedream',
    endpoint: 'image/text-2-image',
    cost: 4,
    idempotencyKey: 'key-42',
    fields: null,
    assetId: null,
    createdAt: Date.now(),
    outcome: 'succeeded',
    finishedAt: Date.now(),
    refunded: false,
    error: null,
  },
};

const noop = () => undefined;

describe('the jobs panel’s Inspect link', () => {
  it('links a job to its actor in the inspector for people in the Developer group', async () => {
    await signedInAs({ ...alice, groups: ['Developer'] });
    render(<JobRow entry={entry} onCancel={noop} onDismiss={noop} />);
    const link = await screen.findByRole('link', { name: 'Inspect Text to Image job' });
    expect(link).toHaveAttribute('href', '/inspector?actor=job-42');
  });

  it('is not shown to others (outside local mode)', async () => {
    await signedInAs(alice);
    render(<JobRow entry={entry} onCancel={noop} onDismiss={noop} />);
    expect(await screen.findByRole('link', { name: 'View result' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /^Inspect/ })).not.toBeInTheDocument();
  });
});
