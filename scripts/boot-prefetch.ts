import type { Plugin } from 'vite';
import { BOOT_CHUNKS_META } from '../src/config/boot.ts';

interface ChunkLike {
  fileName: string;
  imports: string[];
  dynamicImports: string[];
}

/** The chunks main.tsx imports in parts (its dynamic imports) and every chunk they import statically. */
export function bootChunks(entry: ChunkLike, bundle: Record<string, ChunkLike | { fileName: string }>, skip: RegExp): string[] {
  const seen = new Set<string>();
  const pending = entry.dynamicImports.filter((file) => !skip.test(file));
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (seen.has(file) || file === entry.fileName || entry.imports.includes(file)) continue;
    seen.add(file);
    const chunk = bundle[file];
    if (chunk && 'imports' in chunk) pending.push(...chunk.imports);
  }
  return [...seen].sort();
}


/**
 * main.tsx loads the app's modules in parts, one task each (issue 19: total blocking time), and
 * each part would only be requested once the one before it has run: on a slow network, a round
 * trip per part. This plugin lists the parts' files in index.html (a meta tag, space-separated
 * paths), and main.tsx asks for all of them at once as soon as it runs, as `prefetch` (downloaded
 * at low priority into the cache, compiled only when imported), so each `import()` finds its file
 * there. Not links in the HTML itself: the browser would fetch them before the first paint,
 * competing with it (Lighthouse's largest paint went from 1.6 s to 2.7 s with such links). Not
 * `modulepreload`: the browser compiles those at once, on the main thread, which lengthened the
 * first task after the paint (median total blocking time over seven loads at 4x CPU: 503 ms
 * against 451 ms with prefetch). The env error page (a broken build) is left out.
 */
export function bootPrefetch(): Plugin {
  return {
    name: 'kinora-boot-prefetch',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, context) {
        const { bundle, chunk } = context;
        if (!bundle || !chunk) return;
        const files = bootChunks(chunk, bundle as Record<string, ChunkLike>, /env-error-page/);
        return [{ tag: 'meta', attrs: { name: BOOT_CHUNKS_META, content: files.map((file) => `/${file}`).join(' ') }, injectTo: 'head' as const }];
      },
    },
  };
}
