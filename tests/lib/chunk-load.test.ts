import { describe, expect, it, vi } from 'vitest';
import { isChunkLoadError, retryImport } from '@/lib/chunk-load';

describe('isChunkLoadError', () => {
  it('recognises the chunk download failures of each browser', () => {
    expect(isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: http://localhost/assets/a-1.js'))).toBe(true);
    expect(isChunkLoadError(new TypeError('error loading dynamically imported module: http://localhost/assets/a-1.js'))).toBe(true);
    expect(isChunkLoadError(new TypeError('Importing a module script failed.'))).toBe(true);
    const webpack = new Error('Loading chunk 42 failed.');
    webpack.name = 'ChunkLoadError';
    expect(isChunkLoadError(webpack)).toBe(true);
  });

  it('leaves other errors alone', () => {
    expect(isChunkLoadError(new Error('render crash'))).toBe(false);
    expect(isChunkLoadError('Failed to fetch dynamically imported module')).toBe(false);
    expect(isChunkLoadError(null)).toBe(false);
  });
});

describe('retryImport', () => {
  const chunkError = () => new TypeError('Failed to fetch dynamically imported module: /assets/a.js');

  it('tries again after each delay and returns the first success', async () => {
    const load = vi.fn<() => Promise<string>>().mockRejectedValueOnce(chunkError()).mockResolvedValueOnce('module');
    const wait = vi.fn(async () => {});

    await expect(retryImport(load, [500, 1500], wait)).resolves.toBe('module');
    expect(load).toHaveBeenCalledTimes(2);
    expect(wait.mock.calls).toEqual([[500]]);
  });

  it('passes on the last failure once every attempt failed', async () => {
    const last = chunkError();
    const load = vi
      .fn<() => Promise<string>>()
      .mockRejectedValueOnce(chunkError())
      .mockRejectedValueOnce(chunkError())
      .mockRejectedValueOnce(last);
    const wait = vi.fn(async () => {});

    await expect(retryImport(load, [500, 1500], wait)).rejects.toBe(last);
    expect(load).toHaveBeenCalledTimes(3);
    expect(wait.mock.calls).toEqual([[500], [1500]]);
  });

  it('waits with real timers by default', async () => {
    vi.useFakeTimers();
    const load = vi.fn<() => Promise<string>>().mockRejectedValueOnce(chunkError()).mockResolvedValueOnce('module');
    const result = retryImport(load, [500]);
    await vi.advanceTimersByTimeAsync(499);
    expect(load).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    await expect(result).resolves.toBe('module');
    vi.useRealTimers();
  });
});
