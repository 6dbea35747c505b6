import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { BANNER_TEXTS } from '@/config/banner-texts';
import { OFFLINE_BANNER_AFTER_MS } from '@/config/limits';
import { bannerMachine } from '@/machines/banner/banner.machine';
import { selectVisibleBanner } from '@/machines/banner/banner.selectors';

function startBanner() {
  const scrolls: number[] = [];
  const actor = createActor(bannerMachine.provide({ actions: { scrollToTop: () => void scrolls.push(1) } })).start();
  return { actor, scrolls };
}

describe('banner machine', () => {
  afterEach(() => vi.restoreAllMocks());

  it('starts hidden', () => {
    const { actor } = startBanner();
    expect(actor.getSnapshot().matches({ notice: 'hidden' })).toBe(true);
    expect(selectVisibleBanner(actor.getSnapshot())).toBeNull();
  });

  it('shows a success or error notice and scrolls to the top each time', () => {
    const { actor, scrolls } = startBanner();
    actor.send({ type: 'banner.show', kind: 'success', message: 'Saved' });
    expect(selectVisibleBanner(actor.getSnapshot())).toEqual({ kind: 'success', message: 'Saved' });
    expect(scrolls).toHaveLength(1);

    actor.send({ type: 'banner.show', kind: 'error', message: 'Failed' });
    expect(selectVisibleBanner(actor.getSnapshot())).toEqual({ kind: 'error', message: 'Failed' });
    expect(scrolls).toHaveLength(2);
  });

  it('hides on dismiss, and dismissing a hidden banner does nothing', () => {
    const { actor, scrolls } = startBanner();
    expect(actor.getSnapshot().can({ type: 'banner.dismiss' })).toBe(false);
    actor.send({ type: 'banner.show', kind: 'error', message: 'Failed' });
    actor.send({ type: 'banner.dismiss' });
    expect(selectVisibleBanner(actor.getSnapshot())).toBeNull();
    expect(actor.getSnapshot().context.message).toBe('');
    expect(scrolls).toHaveLength(1);
  });

  it('raises an error notice after a minute offline and a success notice when back, nothing for a short drop-out', () => {
    vi.useFakeTimers();
    const { actor } = startBanner();
    actor.send({ type: 'connection.offline' });
    vi.advanceTimersByTime(OFFLINE_BANNER_AFTER_MS - 1);
    actor.send({ type: 'connection.online' });
    vi.advanceTimersByTime(OFFLINE_BANNER_AFTER_MS * 2);
    expect(selectVisibleBanner(actor.getSnapshot())).toBeNull();

    actor.send({ type: 'connection.offline' });
    vi.advanceTimersByTime(OFFLINE_BANNER_AFTER_MS);
    expect(selectVisibleBanner(actor.getSnapshot())).toEqual({ kind: 'error', message: BANNER_TEXTS.offline });
    actor.send({ type: 'connection.online' });
    expect(selectVisibleBanner(actor.getSnapshot())).toEqual({ kind: 'success', message: BANNER_TEXTS.backOnline });
    vi.useRealTimers();
  });

  it('scrolls the real window to the top by default', () => {
    const scrollTo = vi.spyOn(window, 'scrollTo').mockImplementation(() => {});
    const actor = createActor(bannerMachine).start();
    actor.send({ type: 'banner.show', kind: 'success', message: 'Done' });
    expect(scrollTo).toHaveBeenCalledWith({ top: 0, behavior: 'smooth' });
  });
});
