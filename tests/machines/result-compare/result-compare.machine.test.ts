import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { COMPARE_SPLIT_START, resultCompareMachine } from '@/machines/result-compare/result-compare.machine';
import { selectCompareMode, selectCompareOpen, selectCompareSelected, selectCompareSplit } from '@/machines/result-compare/result-compare.selectors';

const start = () => createActor(resultCompareMachine).start();

describe('result compare machine (issue 21 item 7)', () => {
  it('marks up to two pictures, refuses a third, and unmarks any', () => {
    const actor = start();
    actor.send({ type: 'compare.toggle', id: 'a' });
    actor.send({ type: 'compare.toggle', id: 'b' });
    expect(selectCompareSelected(actor.getSnapshot())).toEqual(['a', 'b']);
    expect(actor.getSnapshot().can({ type: 'compare.toggle', id: 'c' })).toBe(false);
    actor.send({ type: 'compare.toggle', id: 'c' });
    expect(selectCompareSelected(actor.getSnapshot())).toEqual(['a', 'b']);
    expect(actor.getSnapshot().can({ type: 'compare.toggle', id: 'a' })).toBe(true);
    actor.send({ type: 'compare.toggle', id: 'a' });
    actor.send({ type: 'compare.toggle', id: 'c' });
    expect(selectCompareSelected(actor.getSnapshot())).toEqual(['b', 'c']);
    actor.send({ type: 'compare.clear' });
    expect(selectCompareSelected(actor.getSnapshot())).toEqual([]);
  });

  it('opens only with a pair, at the middle, and moves the split within 0–100 while open', () => {
    const actor = start();
    actor.send({ type: 'compare.toggle', id: 'a' });
    expect(actor.getSnapshot().can({ type: 'compare.open' })).toBe(false);
    actor.send({ type: 'compare.open' });
    expect(selectCompareOpen(actor.getSnapshot())).toBe(false);
    // The split moves only in the open view.
    expect(actor.getSnapshot().can({ type: 'compare.nudge', by: 1 })).toBe(false);
    actor.send({ type: 'compare.toggle', id: 'b' });
    actor.send({ type: 'compare.open' });
    expect(selectCompareOpen(actor.getSnapshot())).toBe(true);
    expect(selectCompareSplit(actor.getSnapshot())).toBe(COMPARE_SPLIT_START);
    actor.send({ type: 'compare.nudge', by: 10 });
    expect(selectCompareSplit(actor.getSnapshot())).toBe(60);
    actor.send({ type: 'compare.nudge', by: 100 });
    expect(selectCompareSplit(actor.getSnapshot())).toBe(100);
    actor.send({ type: 'compare.split', position: -40 });
    expect(selectCompareSplit(actor.getSnapshot())).toBe(0);
    actor.send({ type: 'compare.split', position: Number.NaN });
    expect(selectCompareSplit(actor.getSnapshot())).toBe(COMPARE_SPLIT_START);
    // Marks cannot change under the open view.
    expect(actor.getSnapshot().can({ type: 'compare.toggle', id: 'a' })).toBe(false);
    actor.send({ type: 'compare.mode', mode: 'panes' });
    expect(selectCompareMode(actor.getSnapshot())).toBe('panes');
    actor.send({ type: 'compare.close' });
    expect(selectCompareOpen(actor.getSnapshot())).toBe(false);
    expect(selectCompareSelected(actor.getSnapshot())).toEqual(['a', 'b']);
    // Opened again: the split starts in the middle, the way of showing them is kept.
    actor.send({ type: 'compare.open' });
    expect(selectCompareSplit(actor.getSnapshot())).toBe(COMPARE_SPLIT_START);
    expect(selectCompareMode(actor.getSnapshot())).toBe('panes');
  });

  it('drops marks of pictures no longer listed, and closes the view when its pair is broken', () => {
    const actor = start();
    actor.send({ type: 'compare.toggle', id: 'a' });
    actor.send({ type: 'compare.toggle', id: 'b' });
    actor.send({ type: 'compare.open' });
    actor.send({ type: 'compare.retain', ids: ['a', 'b', 'c'] });
    expect(selectCompareOpen(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'compare.retain', ids: ['b', 'c'] });
    expect(selectCompareOpen(actor.getSnapshot())).toBe(false);
    expect(selectCompareSelected(actor.getSnapshot())).toEqual(['b']);
  });
});
