import { describe, expect, it } from 'vitest';
import { JobRow } from '@/components/jobs/job-row';
import type { JobEntry } from '@/components/jobs/job-view';
import type { StoredJob } from '@/machines/jobs/jobs.machine';
import { render, screen } from '../../test-utils';

const buildEntry = (outcome: StoredJob['outcome']): JobEntry => ({
  localId: 'job-7',
  ref: null,
  stored: {
    localId: 'job-7',
    mediaId: 'media-7',
    tool: 'text-to-image',
    toolTitle: 'Text to Image',
    option: 'Seedream',
    optionLabel: 'Seedream',
    endpoint: 'image/text-2-image',
    cost: 4,
    idempotencyKey: 'key-7',
    fields: null,
    assetId: null,
    createdAt: Date.now(),
    outcome,
    finishedAt: Date.now(),
    refunded: outcome !== 'succeeded',
    error: outcome === 'failed' ? 'The render engine failed.' : null,
  },
});

const noop = () => undefined;

// Issue 17: "View result" is offered only for a job that has a result.
describe('the jobs panel’s View result link', () => {
  it('links a succeeded job to its result on the tool page', () => {
    render(<JobRow entry={buildEntry('succeeded')} onCancel={noop} onDismiss={noop} />);
    expect(screen.getByRole('link', { name: 'View result' })).toHaveAttribute('href', '/ai-image/text-to-image?job=media-7');
  });

  it.each(['cancelled', 'failed', 'nsfw'] as const)('is not offered for a %s job, which has no result', (outcome) => {
    render(<JobRow entry={buildEntry(outcome)} onCancel={noop} onDismiss={noop} />);
    expect(screen.getByRole('listitem')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'View result' })).not.toBeInTheDocument();
  });
});
