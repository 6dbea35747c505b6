import { describe, expect, it } from 'vitest';
import { appendNew, firstPageChange, initialFocus, nextPageChange, seekFurther, seekPageChange, settledFocus, stopSeeking } from '@/machines/paged-list';

const item = (id: string) => ({ id });
const page = (ids: string[], nextStartKeys: string | null) => ({ items: ids.map(item), nextStartKeys });

describe('the paged lists’ shared rules (History, the Library, shared content)', () => {
  it('appends a next page without repeating an item a page boundary listed twice', () => {
    expect(appendNew([item('a'), item('b')], [item('b'), item('c')])).toEqual([item('a'), item('b'), item('c')]);
  });

  it('looks for a linked item page after page, at most maxPages, and settles found or missing', () => {
    const seeking = initialFocus('z');
    expect(seeking).toEqual({ id: 'z', state: 'seeking', pages: 0 });
    expect(initialFocus(null)).toEqual({ id: null, state: 'none', pages: 0 });
    expect(seekFurther(seeking, page(['a'], 'k1'), 3)).toBe(true);
    expect(seekFurther(seeking, page(['a', 'z'], 'k1'), 3)).toBe(false);
    expect(seekFurther(seeking, page(['a'], null), 3)).toBe(false);
    expect(seekFurther({ ...seeking, pages: 2 }, page(['a'], 'k1'), 3)).toBe(false);
    expect(settledFocus(seeking, [item('z')])).toMatchObject({ state: 'found' });
    expect(settledFocus(seeking, [item('a')])).toMatchObject({ state: 'missing' });
    expect(stopSeeking(seeking)).toMatchObject({ state: 'none' });
    expect(stopSeeking({ ...seeking, state: 'found' })).toMatchObject({ state: 'found' });
  });

  it('a first page replaces the list, a next page appends, a sought page counts itself', () => {
    const context = { items: [item('old')], nextStartKeys: 'k0', error: 'Boom', focus: initialFocus('c') };
    expect(firstPageChange(context, page(['a', 'b'], 'k1'))).toEqual({ items: [item('a'), item('b')], nextStartKeys: 'k1', error: null, focus: { id: 'c', state: 'missing', pages: 0 } });
    expect(seekPageChange(context, page(['a'], 'k1'))).toEqual({ items: [item('old'), item('a')], nextStartKeys: 'k1', error: null, focus: { id: 'c', state: 'seeking', pages: 1 } });
    expect(nextPageChange(context, page(['c'], null))).toEqual({ items: [item('old'), item('c')], nextStartKeys: null, error: null, focus: { id: 'c', state: 'found', pages: 0 } });
  });
});
