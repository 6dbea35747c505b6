import { describe, expect, it } from 'vitest';
import { ordinal, QUEUE_TEXTS } from '@/config/queue-texts';

describe('the queue texts', () => {
  it('name a place in English ordinals', () => {
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111, 112].map(ordinal)).toEqual([
      '1st',
      '2nd',
      '3rd',
      '4th',
      '11th',
      '12th',
      '13th',
      '21st',
      '22nd',
      '23rd',
      '101st',
      '111th',
      '112th',
    ]);
    expect(QUEUE_TEXTS.position(3)).toBe('3rd in your queue');
  });

  it('say what saving an edit debits or refunds', () => {
    expect(QUEUE_TEXTS.editForm.difference(4, 8)).toBe('4 credits more will be debited when you save.');
    expect(QUEUE_TEXTS.editForm.difference(8, 7)).toBe('1 credit will be refunded when you save.');
    expect(QUEUE_TEXTS.editForm.difference(4, 4)).toBe('The price stays the same.');
  });
});
