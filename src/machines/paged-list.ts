/**
 * What the server-paged lists share (History, the Library, the shared-content listings): pages
 * read with `next_start_keys` and appended without repeats, and the item a link asked for
 * (`?job=`, `?item=`) looked for page after page. Pure functions of a list's context; each
 * machine keeps its own states and says in its own words what happens around them.
 */

/** One page as a list's service answers it. */
export interface PageAnswer<T> {
  items: T[];
  /** The cursor of the next page; null on the last page. */
  nextStartKeys: string | null;
}

/**
 * The item a link asked for: still being looked for, found (shown outlined), not among the items
 * read (a notice), or none asked for / given up because the filters changed.
 */
export type FocusState = 'seeking' | 'found' | 'missing' | 'none';

export interface ListFocus {
  id: string | null;
  state: FocusState;
  /** Pages read while looking for it. */
  pages: number;
}

/** The focus a list starts with: looking for `id` when a link named one. */
export const initialFocus = (id: string | null | undefined): ListFocus => ({ id: id ?? null, state: id ? 'seeking' : 'none', pages: 0 });

/** Items of `more` not already listed, after `items` (a page boundary can repeat one). */
export function appendNew<T extends { id: string }>(items: T[], more: T[]): T[] {
  const seen = new Set(items.map((item) => item.id));
  return [...items, ...more.filter((item) => !seen.has(item.id))];
}

/** After a page: the focus found, or missing once nothing more will be read for it. */
export function settledFocus(focus: ListFocus, items: readonly { id: string }[]): ListFocus {
  if (focus.state !== 'seeking') return focus;
  return { ...focus, state: items.some((item) => item.id === focus.id) ? 'found' : 'missing' };
}

/** A filter change stops looking for the focus (it may not match them); a found one stays outlined. */
export const stopSeeking = (focus: ListFocus): ListFocus => (focus.state === 'seeking' ? { ...focus, state: 'none' } : focus);

/** The focus is not on this page, another page follows, and fewer than `maxPages` were read: read on. */
export const seekFurther = (focus: ListFocus, page: PageAnswer<{ id: string }>, maxPages: number): boolean =>
  focus.state === 'seeking' && !page.items.some((item) => item.id === focus.id) && page.nextStartKeys !== null && focus.pages + 1 < maxPages;

interface PagedContext<T> {
  items: T[];
  nextStartKeys: string | null;
  error: string | null;
  focus: ListFocus;
}

type PagedChange<T> = Pick<PagedContext<T>, 'items' | 'nextStartKeys' | 'error' | 'focus'>;

/** A first page: it replaces the list. */
export const firstPageChange = <T extends { id: string }>(context: PagedContext<T>, page: PageAnswer<T>): PagedChange<T> => ({
  items: page.items,
  nextStartKeys: page.nextStartKeys,
  error: null,
  focus: settledFocus(context.focus, page.items),
});

/** A next page ("Load more", or the last one read looking for the focus): appended. */
export function nextPageChange<T extends { id: string }>(context: PagedContext<T>, page: PageAnswer<T>): PagedChange<T> {
  const items = appendNew(context.items, page.items);
  return { items, nextStartKeys: page.nextStartKeys, error: null, focus: settledFocus(context.focus, items) };
}

/** A page read while looking for the focus: kept, and one more page counted. */
export const seekPageChange = <T extends { id: string }>(context: PagedContext<T>, page: PageAnswer<T>): PagedChange<T> => ({
  items: appendNew(context.items, page.items),
  nextStartKeys: page.nextStartKeys,
  error: null,
  focus: { ...context.focus, pages: context.focus.pages + 1 },
});
