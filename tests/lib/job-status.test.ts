import { describe, expect, it } from 'vitest';
import { GENERATION_STATUSES } from '@/config/enums';
import { classifyStatus } from '@/lib/job-status';

describe('classifyStatus (SPEC §4)', () => {
  it.each(GENERATION_STATUSES.success)('%s is a success', (status) => {
    expect(classifyStatus(status)).toBe('success');
  });

  it.each(GENERATION_STATUSES.processing)('%s is still processing', (status) => {
    expect(classifyStatus(status)).toBe('processing');
  });

  it.each([
    ['failed', 'failed'],
    ['nsfw', 'nsfw'],
    ['cancelled', 'cancelled'],
  ] as const)('%s ends as %s', (status, outcome) => {
    expect(classifyStatus(status)).toBe(outcome);
  });

  it.each(['new', 'queue_something_new', '', 'SUCCESS', null, undefined])(
    'an unknown value (%s) counts as processing',
    (status) => {
      expect(classifyStatus(status)).toBe('processing');
    },
  );
});
