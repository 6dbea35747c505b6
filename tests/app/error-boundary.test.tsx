import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ErrorBoundary } from '@/app/error-boundary';
import { render, screen, userEvent } from '../test-utils';

let shouldThrow = true;

function Fragile() {
  if (shouldThrow) throw new Error('render crash');
  return <p>All good</p>;
}

describe('error boundary', () => {
  beforeEach(() => {
    shouldThrow = true;
    // React logs every caught render error; the fallback on screen is what this test checks.
    vi.spyOn(console, 'error').mockImplementation(() => {});
  });
  afterEach(() => vi.restoreAllMocks());

  it('shows "Oops, there is an error!" and reports the error', () => {
    const onError = vi.fn();
    render(
      <ErrorBoundary onError={onError}>
        <Fragile />
      </ErrorBoundary>,
    );
    expect(screen.getByRole('heading', { name: 'Oops, there is an error!' })).toBeInTheDocument();
    expect(screen.queryByText('All good')).not.toBeInTheDocument();
    expect(onError).toHaveBeenCalledTimes(1);
    expect(onError.mock.calls[0]?.[0]).toEqual(new Error('render crash'));
    expect(onError.mock.calls[0]?.[1]).toContain('Fragile');
  });

  it('"Try again?" resets the boundary and renders the children again', async () => {
    render(
      <ErrorBoundary>
        <Fragile />
      </ErrorBoundary>,
    );
    shouldThrow = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again?' }));
    expect(screen.getByText('All good')).toBeInTheDocument();
    expect(screen.queryByText('Oops, there is an error!')).not.toBeInTheDocument();
  });

  it('shows the fallback again when the retry fails too', async () => {
    render(
      <ErrorBoundary>
        <Fragile />
      </ErrorBoundary>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Try again?' }));
    expect(screen.getByRole('heading', { name: 'Oops, there is an error!' })).toBeInTheDocument();
  });

  it('clears the fallback when its reset key changes (e.g. the user goes to another page)', async () => {
    function Page() {
      const [path, setPath] = useState('/broken');
      return (
        <>
          <button type="button" onClick={() => setPath('/other')}>
            Go elsewhere
          </button>
          <ErrorBoundary resetKey={path}>{path === '/broken' ? <Fragile /> : <p>Other page</p>}</ErrorBoundary>
        </>
      );
    }
    render(<Page />);
    expect(screen.getByText('Oops, there is an error!')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Go elsewhere' }));
    expect(screen.getByText('Other page')).toBeInTheDocument();
  });
});
