import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { CONTENT_SEARCH_DEBOUNCE_MS, contentsMachine } from '@/machines/content/contents.machine';
import {
  selectAppliedKeyword,
  selectContentItems,
  selectContentsError,
  selectContentsOwner,
  selectContentsStatus,
  selectHasMore,
  selectTypedKeyword,
} from '@/machines/content/contents.selectors';
import { promoVideosMachine } from '@/machines/content/promo-videos.machine';
import { selectPromoStatus, selectPromoVideos } from '@/machines/content/promo-videos.selectors';
import { shareMachine, type ShareValues } from '@/machines/content/share.machine';
import { selectShareError, selectShareStatus, selectShareValues, selectVisibility } from '@/machines/content/share.selectors';
import { sharedItemMachine } from '@/machines/content/shared-item.machine';
import { selectSharedItemStatus, selectSharedMedia } from '@/machines/content/shared-item.selectors';
import { ApiError } from '@/services/api-error';
import type { ContentPage, PublicContent } from '@/services/schemas/content';
import type { Media } from '@/services/schemas/media';
import type { PromoVideoList } from '@/services/schemas/promo-videos';
import type { PublicUser } from '@/services/schemas/users';
import { buildContent } from '../../msw/content';

interface PageRequest {
  handle: string | null;
  ownerId: string | null;
  keyword: string;
  nextStartKeys: string | null;
}

const pageOf = (items: PublicContent[], next: string | null = null): ContentPage => ({ items, next_start_keys: next });
const notFound = () => new ApiError('User not found.', { kind: 'http', status: 404 });

function startContents(options: {
  handle?: string | null;
  owner?: (handle: string) => Promise<PublicUser>;
  page: (request: PageRequest) => Promise<ContentPage>;
}) {
  const loadPage = vi.fn(options.page);
  const loadOwner = vi.fn(options.owner ?? (async (handle: string) => ({ id: `sub-${handle}`, preferred_username: handle })));
  const machine = contentsMachine.provide({
    actors: {
      loadOwner: fromPromise<PublicUser, { handle: string }>(({ input }) => loadOwner(input.handle)),
      loadPage: fromPromise<ContentPage, PageRequest>(({ input }) => loadPage(input)),
    },
  });
  const actor = createActor(machine, { input: { handle: options.handle ?? null } }).start();
  return { actor, loadPage, loadOwner };
}

const ids = (items: PublicContent[]) => items.map((item) => item.id);

afterEach(() => {
  vi.useRealTimers();
});

describe('contents machine', () => {
  it('loads everyone’s first page for Latest (no owner look-up) and says when there are more', async () => {
    const items = [buildContent({ id: 'a' }), buildContent({ id: 'b' })];
    const { actor, loadPage, loadOwner } = startContents({ page: async () => pageOf(items, 'k2') });
    expect(selectContentsStatus(actor.getSnapshot())).toBe('loading');
    await waitFor(actor, (snapshot) => snapshot.matches('ready'));
    expect(ids(selectContentItems(actor.getSnapshot()))).toEqual(['a', 'b']);
    expect(selectHasMore(actor.getSnapshot())).toBe(true);
    expect(loadOwner).not.toHaveBeenCalled();
    expect(loadPage).toHaveBeenCalledWith({ handle: null, ownerId: null, keyword: '', nextStartKeys: null });
  });

  it('looks the profile up first, then lists that person’s items by their id', async () => {
    const { actor, loadPage, loadOwner } = startContents({
      handle: 'Ada',
      owner: async () => ({ id: 'sub-ada', preferred_username: 'ada' }),
      page: async () => pageOf([buildContent({ id: 'x' })]),
    });
    expect(selectContentsStatus(actor.getSnapshot())).toBe('owner-loading');
    await waitFor(actor, (snapshot) => snapshot.matches('ready'));
    expect(loadOwner).toHaveBeenCalledWith('Ada');
    expect(selectContentsOwner(actor.getSnapshot())).toEqual({ id: 'sub-ada', preferred_username: 'ada' });
    expect(loadPage).toHaveBeenCalledWith({ handle: 'Ada', ownerId: 'sub-ada', keyword: '', nextStartKeys: null });
    expect(selectHasMore(actor.getSnapshot())).toBe(false);
  });

  it('stops at "no such profile" on a 404 and never lists', async () => {
    const { actor, loadPage } = startContents({
      handle: 'nobody',
      owner: async () => {
        throw notFound();
      },
      page: async () => pageOf([]),
    });
    await waitFor(actor, (snapshot) => snapshot.matches('ownerMissing'));
    expect(selectContentsStatus(actor.getSnapshot())).toBe('owner-missing');
    actor.send({ type: 'contents.search', keyword: 'cat' });
    expect(selectContentsStatus(actor.getSnapshot())).toBe('owner-missing');
    expect(loadPage).not.toHaveBeenCalled();
  });

  it('retries a profile look-up that failed for another reason', async () => {
    let calls = 0;
    const { actor } = startContents({
      handle: 'ada',
      owner: async (handle) => {
        if (++calls === 1) throw new ApiError('Server down', { kind: 'http', status: 503 });
        return { id: 'sub-ada', preferred_username: handle };
      },
      page: async () => pageOf([buildContent()]),
    });
    await waitFor(actor, (snapshot) => snapshot.matches('ownerFailed'));
    expect(selectContentsError(actor.getSnapshot())).toBe('Server down');
    actor.send({ type: 'contents.retry' });
    await waitFor(actor, (snapshot) => snapshot.matches('ready'));
    expect(selectContentsError(actor.getSnapshot())).toBeNull();
  });

  it('is empty when the first page has nothing', async () => {
    const { actor } = startContents({ page: async () => pageOf([]) });
    await waitFor(actor, (snapshot) => snapshot.matches('empty'));
    expect(selectContentsStatus(actor.getSnapshot())).toBe('empty');
    expect(selectHasMore(actor.getSnapshot())).toBe(false);
  });

  it('appends the next page by next_start_keys, skipping a repeated item, until the last page', async () => {
    const { actor, loadPage } = startContents({
      page: async ({ nextStartKeys }) =>
        nextStartKeys === null
          ? pageOf([buildContent({ id: 'a' }), buildContent({ id: 'b' })], 'k2')
          : pageOf([buildContent({ id: 'b' }), buildContent({ id: 'c' })], null),
    });
    await waitFor(actor, (snapshot) => snapshot.matches('ready'));
    actor.send({ type: 'contents.loadMore' });
    expect(actor.getSnapshot().matches('loadingMore')).toBe(true);
    await waitFor(actor, (snapshot) => snapshot.matches('ready'));
    expect(ids(selectContentItems(actor.getSnapshot()))).toEqual(['a', 'b', 'c']);
    expect(loadPage).toHaveBeenLastCalledWith({ handle: null, ownerId: null, keyword: '', nextStartKeys: 'k2' });
    expect(selectHasMore(actor.getSnapshot())).toBe(false);
    actor.send({ type: 'contents.loadMore' });
    expect(actor.getSnapshot().matches('ready')).toBe(true);
    expect(loadPage).toHaveBeenCalledTimes(2);
  });

  it('keeps the items when "Load more" fails, says why, and tries again', async () => {
    let more = 0;
    const { actor } = startContents({
      page: async ({ nextStartKeys }) => {
        if (nextStartKeys === null) return pageOf([buildContent({ id: 'a' })], 'k2');
        if (++more === 1) throw new Error('Network down');
        return pageOf([buildContent({ id: 'b' })]);
      },
    });
    await waitFor(actor, (snapshot) => snapshot.matches('ready'));
    actor.send({ type: 'contents.loadMore' });
    await waitFor(actor, (snapshot) => snapshot.matches('ready') && snapshot.context.error !== null);
    expect(selectContentsError(actor.getSnapshot())).toBe('Network down');
    expect(ids(selectContentItems(actor.getSnapshot()))).toEqual(['a']);
    expect(selectHasMore(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'contents.loadMore' });
    await waitFor(actor, (snapshot) => snapshot.matches('ready') && !snapshot.context.nextStartKeys);
    expect(ids(selectContentItems(actor.getSnapshot()))).toEqual(['a', 'b']);
    expect(selectContentsError(actor.getSnapshot())).toBeNull();
  });

  it('fails the first page with the server’s message, and a retry loads it', async () => {
    let calls = 0;
    const { actor } = startContents({
      page: async () => {
        if (++calls === 1) throw new ApiError('Server down', { kind: 'http', status: 500 });
        return pageOf([buildContent({ id: 'a' })]);
      },
    });
    await waitFor(actor, (snapshot) => snapshot.matches('failed'));
    expect(selectContentsStatus(actor.getSnapshot())).toBe('failed');
    expect(selectContentsError(actor.getSnapshot())).toBe('Server down');
    actor.send({ type: 'contents.retry' });
    await waitFor(actor, (snapshot) => snapshot.matches('ready'));
    expect(ids(selectContentItems(actor.getSnapshot()))).toEqual(['a']);
  });

  it('searches once typing pauses for the debounce, with the trimmed keyword, from the first page', async () => {
    vi.useFakeTimers();
    const { actor, loadPage } = startContents({
      page: async ({ keyword, nextStartKeys }) =>
        keyword === 'cat' ? pageOf([buildContent({ id: 'cat' })]) : pageOf([buildContent({ id: 'a' })], nextStartKeys ? null : 'k2'),
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().matches('ready')).toBe(true);
    expect(loadPage).toHaveBeenCalledTimes(1);

    actor.send({ type: 'contents.search', keyword: 'c' });
    await vi.advanceTimersByTimeAsync(CONTENT_SEARCH_DEBOUNCE_MS - 100);
    actor.send({ type: 'contents.search', keyword: 'ca' });
    await vi.advanceTimersByTimeAsync(CONTENT_SEARCH_DEBOUNCE_MS - 100);
    actor.send({ type: 'contents.search', keyword: ' cat ' });
    expect(selectTypedKeyword(actor.getSnapshot())).toBe(' cat ');
    expect(selectContentsStatus(actor.getSnapshot())).toBe('loading');
    await vi.advanceTimersByTimeAsync(CONTENT_SEARCH_DEBOUNCE_MS - 1);
    expect(loadPage).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(loadPage).toHaveBeenCalledTimes(2);
    expect(loadPage).toHaveBeenLastCalledWith({ handle: null, ownerId: null, keyword: 'cat', nextStartKeys: null });
    await vi.advanceTimersByTimeAsync(0);
    expect(ids(selectContentItems(actor.getSnapshot()))).toEqual(['cat']);
    expect(selectAppliedKeyword(actor.getSnapshot())).toBe('cat');
    expect(selectHasMore(actor.getSnapshot())).toBe(false);
  });

  it('a search typed while a page loads drops that page’s answer', async () => {
    vi.useFakeTimers();
    let resolveMore: (page: ContentPage) => void = () => {};
    const { actor } = startContents({
      page: ({ keyword, nextStartKeys }) => {
        if (nextStartKeys) return new Promise<ContentPage>((resolve) => (resolveMore = resolve));
        return Promise.resolve(keyword ? pageOf([]) : pageOf([buildContent({ id: 'a' })], 'k2'));
      },
    });
    await vi.advanceTimersByTimeAsync(0);
    actor.send({ type: 'contents.loadMore' });
    actor.send({ type: 'contents.search', keyword: 'zebra' });
    resolveMore(pageOf([buildContent({ id: 'late' })]));
    await vi.advanceTimersByTimeAsync(CONTENT_SEARCH_DEBOUNCE_MS);
    await vi.advanceTimersByTimeAsync(0);
    expect(selectContentsStatus(actor.getSnapshot())).toBe('empty');
    expect(ids(selectContentItems(actor.getSnapshot()))).toEqual([]);
    expect(selectAppliedKeyword(actor.getSnapshot())).toBe('zebra');
  });
});

const values: ShareValues = { title: 'Lighthouse', description: 'At dawn', visibility: 'public' };

function startShare(save: (body: ShareValues) => Promise<Media>) {
  const saver = vi.fn(save);
  const machine = shareMachine.provide({
    actors: {
      saveShare: fromPromise<Media, { mediaId: string; body: ShareValues }>(({ input }) => saver(input.body)),
    },
  });
  const actor = createActor(machine, {
    input: { mediaId: 'm1', title: '', description: '', visibility: 'private' },
  }).start();
  return { actor, saver };
}

const savedMedia = (body: ShareValues): Media =>
  ({ id: 'm1', ...body, shared_at: '2025-01-01T00:00:00.000Z' }) as unknown as Media;

describe('share machine', () => {
  it('editing → saving → saved, and the saved values become the current ones', async () => {
    const { actor, saver } = startShare(async (body) => savedMedia(body));
    expect(selectShareStatus(actor.getSnapshot())).toBe('editing');
    expect(selectVisibility(actor.getSnapshot())).toBe('private');
    actor.send({ type: 'share.submit', values });
    expect(selectShareStatus(actor.getSnapshot())).toBe('saving');
    await waitFor(actor, (snapshot) => snapshot.matches('saved'));
    expect(saver).toHaveBeenCalledWith(values);
    expect(selectShareValues(actor.getSnapshot())).toEqual(values);
    expect(selectVisibility(actor.getSnapshot())).toBe('public');
    actor.send({ type: 'share.edit' });
    expect(selectShareStatus(actor.getSnapshot())).toBe('editing');
  });

  it('a failure keeps the values as they were, says why, and can be sent again', async () => {
    let calls = 0;
    const { actor, saver } = startShare(async (body) => {
      if (++calls === 1) throw new ApiError('Only a finished result can be shared.', { kind: 'http', status: 400 });
      return savedMedia(body);
    });
    actor.send({ type: 'share.submit', values });
    await waitFor(actor, (snapshot) => snapshot.matches('failed'));
    expect(selectShareError(actor.getSnapshot())).toBe('Only a finished result can be shared.');
    expect(selectVisibility(actor.getSnapshot())).toBe('private');
    actor.send({ type: 'share.submit', values: { ...values, visibility: 'unlisted' } });
    await waitFor(actor, (snapshot) => snapshot.matches('saved'));
    expect(saver).toHaveBeenCalledTimes(2);
    expect(selectShareError(actor.getSnapshot())).toBeNull();
    expect(selectVisibility(actor.getSnapshot())).toBe('unlisted');
  });
});

describe('promo videos machine', () => {
  const video = { id: 'p1', title: 'Parallax', video_url: 'http://x/p1.mp4', thumbnail_url: 'http://x/p1.jpg' };

  it('loads the videos; a failure offers a retry', async () => {
    let calls = 0;
    const machine = promoVideosMachine.provide({
      actors: {
        loadPromoVideos: fromPromise<PromoVideoList>(async () => {
          if (++calls === 1) throw new Error('down');
          return [video];
        }),
      },
    });
    const actor = createActor(machine).start();
    await waitFor(actor, (snapshot) => snapshot.matches('failed'));
    expect(selectPromoStatus(actor.getSnapshot())).toBe('failed');
    actor.send({ type: 'promo.retry' });
    await waitFor(actor, (snapshot) => snapshot.matches('ready'));
    expect(selectPromoVideos(actor.getSnapshot())).toEqual([video]);
  });
});

describe('shared item machine', () => {
  const start = (view: () => Promise<Media>) =>
    createActor(sharedItemMachine.provide({ actors: { loadSharedItem: fromPromise<Media, { id: string }>(view) } }), {
      input: { id: 'm1' },
    }).start();

  it('shows a shared item', async () => {
    const actor = start(async () => savedMedia(values));
    await waitFor(actor, (snapshot) => snapshot.matches('ready'));
    expect(selectSharedItemStatus(actor.getSnapshot())).toBe('ready');
    expect(selectSharedMedia(actor.getSnapshot())?.title).toBe('Lighthouse');
  });

  it('tells "not found" (404) from a failure that can be retried', async () => {
    const missing = start(async () => {
      throw new ApiError('Media not found', { kind: 'http', status: 404 });
    });
    await waitFor(missing, (snapshot) => snapshot.matches('notFound'));
    expect(selectSharedItemStatus(missing.getSnapshot())).toBe('not-found');

    let calls = 0;
    const flaky = start(async () => {
      if (++calls === 1) throw new Error('Network down');
      return savedMedia(values);
    });
    await waitFor(flaky, (snapshot) => snapshot.matches('failed'));
    flaky.send({ type: 'shared.retry' });
    await waitFor(flaky, (snapshot) => snapshot.matches('ready'));
  });
});
