/**
 * A lazy chunk that failed to download: the network dropped, or a new deploy removed the hashed
 * file the old page still refers to. Each browser words it differently.
 */
const CHUNK_LOAD_MESSAGES = [
  /Failed to fetch dynamically imported module/i, // Chromium
  /error loading dynamically imported module/i, // Firefox
  /Importing a module script failed/i, // Safari
  /Unable to preload CSS/i, // Vite's CSS preload
  /Loading (CSS )?chunk [\w-]+ failed/i, // webpack-style bundles
];

export function isChunkLoadError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return error.name === 'ChunkLoadError' || CHUNK_LOAD_MESSAGES.some((pattern) => pattern.test(error.message));
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Calls `load` and, when it fails, calls it again after each of `delaysMs`; the last failure is
 * passed on. A flaky connection often gets a chunk on the second try.
 */
export async function retryImport<T>(
  load: () => Promise<T>,
  delaysMs: readonly number[],
  wait: (ms: number) => Promise<void> = sleep,
): Promise<T> {
  for (const delay of delaysMs) {
    try {
      return await load();
    } catch {
      await wait(delay);
    }
  }
  return load();
}
