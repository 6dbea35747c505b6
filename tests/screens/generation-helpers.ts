import { notifications } from '@mantine/notifications';
import { afterEach, beforeEach, vi } from 'vitest';

/**
 * Sets up tests that run generation jobs. Job polling waits a full-jitter delay (JOB_POLL: up to
 * 2 s, then more); the random draw is scaled down so polls come quickly: each wait is at most
 * `fraction` of its full length. The draws stay random, since Mantine also makes element ids from
 * them. Toasts live in a store outside React: one test's toasts are cleared before the next.
 */
export function setUpJobTests(fraction = 0.001): void {
  beforeEach(() => {
    const random = Math.random.bind(Math);
    vi.spyOn(Math, 'random').mockImplementation(() => random() * fraction);
  });
  afterEach(() => {
    vi.restoreAllMocks();
    notifications.clean();
  });
}

/** A file of `size` bytes without allocating them: only its size is read before sending. */
export function fileOfSize(name: string, type: string, size: number): File {
  const file = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], name, { type });
  Object.defineProperty(file, 'size', { value: size });
  return file;
}

export const pngFile = (name = 'photo.png'): File =>
  new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])], name, { type: 'image/png' });

/**
 * The first visit of a lazily loaded tool page compiles its chunk, which takes longer than a
 * find's default second on a busy machine.
 */
export const PAGE_LOAD = { timeout: 10_000 } as const;
