import { useEffect } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BannerActorContext } from '@/components/banner/banner-context';
import { TopBanner } from '@/components/banner/top-banner';
import type { BannerKind } from '@/machines/banner/banner.machine';
import { BANNER_TEXTS } from '@/config/banner-texts';
import { OFFLINE_BANNER_AFTER_MS } from '@/config/limits';
import { act, render, screen, userEvent } from '../test-utils';

function ShowOnMount({ kind, message }: { kind: BannerKind; message: string }) {
  const banner = BannerActorContext.useActorRef();
  useEffect(() => banner.send({ type: 'banner.show', kind, message }), [banner, kind, message]);
  return null;
}

describe('top banner', () => {
  afterEach(() => vi.restoreAllMocks());

  it('renders nothing until a notice is sent', () => {
    render(
      <BannerActorContext.Provider>
        <TopBanner />
      </BannerActorContext.Provider>,
    );
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('shows an error notice, scrolls to the top, and can be dismissed', async () => {
    const scrollTo = vi.spyOn(window, 'scrollTo').mockImplementation(() => {});
    render(
      <BannerActorContext.Provider>
        <TopBanner />
        <ShowOnMount kind="error" message="Could not save your video" />
      </BannerActorContext.Provider>,
    );
    expect(screen.getByRole('alert')).toHaveTextContent('Could not save your video');
    expect(scrollTo).toHaveBeenCalledWith({ top: 0, behavior: 'smooth' });

    await userEvent.click(screen.getByRole('button', { name: 'Dismiss notice' }));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows a success notice as a status message', () => {
    vi.spyOn(window, 'scrollTo').mockImplementation(() => {});
    render(
      <BannerActorContext.Provider>
        <TopBanner />
        <ShowOnMount kind="success" message="Your video is shared" />
      </BannerActorContext.Provider>,
    );
    expect(screen.getByRole('status')).toHaveTextContent('Success');
    expect(screen.getByRole('status')).toHaveTextContent('Your video is shared');
  });

  it('says so after a minute offline, and again when the connection is back (issue 17)', () => {
    vi.useFakeTimers();
    render(
      <BannerActorContext.Provider>
        <TopBanner />
      </BannerActorContext.Provider>,
    );
    act(() => {
      window.dispatchEvent(new Event('offline'));
      vi.advanceTimersByTime(OFFLINE_BANNER_AFTER_MS);
    });
    expect(screen.getByRole('alert')).toHaveTextContent(BANNER_TEXTS.offline);
    act(() => {
      window.dispatchEvent(new Event('online'));
    });
    expect(screen.getByRole('status')).toHaveTextContent(BANNER_TEXTS.backOnline);
    vi.useRealTimers();
  });
});
