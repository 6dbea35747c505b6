import { Suspense, type ComponentType } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ErrorBoundary } from '@/app/error-boundary';
import { lazyScreen } from '@/app/lazy-screen';
import { reloadPage } from '@/app/reload-page';
import { render, screen, userEvent } from '../test-utils';

vi.mock('@/app/reload-page', () => ({ reloadPage: vi.fn() }));

function Greeting({ name }: { name: string }) {
  return <p>Hello {name}</p>;
}

type GreetingModule = { Greeting: ComponentType<{ name: string }> };
const chunkError = () => new TypeError('Failed to fetch dynamically imported module: http://localhost/assets/greeting-1a2b.js');

function renderLazy(Screen: ComponentType<{ name: string }>) {
  return render(
    <ErrorBoundary>
      <Suspense fallback={<p>Loading…</p>}>
        <Screen name="Ada" />
      </Suspense>
    </ErrorBoundary>,
  );
}

describe('lazyScreen', () => {
  beforeEach(() => {
    vi.mocked(reloadPage).mockReset();
    // React logs the error the boundary catches; the fallback on screen is what is checked.
    vi.spyOn(console, 'error').mockImplementation(() => {});
  });
  afterEach(() => vi.restoreAllMocks());

  it('draws a preloaded screen at once, without its fallback', async () => {
    const load = vi.fn<() => Promise<GreetingModule>>().mockResolvedValue({ Greeting });
    const Screen = lazyScreen(load, 'Greeting', []);
    await Screen.preload();
    renderLazy(Screen);
    expect(screen.getByText('Hello Ada')).toBeInTheDocument();
    expect(screen.queryByText('Loading…')).toBeNull();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('retries a chunk that failed to download and shows the screen', async () => {
    const load = vi
      .fn<() => Promise<GreetingModule>>()
      .mockRejectedValueOnce(chunkError())
      .mockRejectedValueOnce(chunkError())
      .mockResolvedValue({ Greeting });

    renderLazy(lazyScreen(load, 'Greeting', [1, 1]));

    expect(await screen.findByText('Hello Ada')).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(3);
    expect(screen.queryByText('Oops, there is an error!')).not.toBeInTheDocument();
  });

  it('shows the error fallback when every attempt fails, and "Try again?" reloads the page', async () => {
    const load = vi.fn<() => Promise<GreetingModule>>().mockRejectedValue(chunkError());

    renderLazy(lazyScreen(load, 'Greeting', [1, 1]));

    expect(await screen.findByRole('heading', { name: 'Oops, there is an error!' })).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(3);
    await userEvent.click(screen.getByRole('button', { name: 'Try again?' }));
    expect(reloadPage).toHaveBeenCalledTimes(1);
  });

  it('re-renders instead of reloading for an error that is not a chunk download', async () => {
    let crash = true;
    function Fragile() {
      if (crash) throw new Error('render crash');
      return <p>All good</p>;
    }
    render(
      <ErrorBoundary>
        <Fragile />
      </ErrorBoundary>,
    );
    crash = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again?' }));
    expect(screen.getByText('All good')).toBeInTheDocument();
    expect(reloadPage).not.toHaveBeenCalled();
  });
});
