import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';
import { isCompressibleFile } from '../server/src/lib/compressible.ts';

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);
/** Below this, gzip's header costs more than it saves. */
const MIN_BYTES = 1024;

async function* files(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else yield full;
  }
}

/**
 * Writes `file.br` (brotli at its best quality; not for source maps) and `file.gz` beside every text file of the build,
 * once, at build time. The API server serves them with @fastify/static's `preCompressed` to
 * browsers that accept them (brotli first), so a page's JS travels compressed without the server
 * spending CPU on each request.
 */
export function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'kinora-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      for await (const file of files(outDir)) {
        if (!isCompressibleFile(file)) continue;
        const bytes = await readFile(file);
        if (bytes.length < MIN_BYTES) continue;
        await writeFile(`${file}.gz`, await gzipAsync(bytes, { level: 9 }));
        // Source maps are fetched by developer tools only: brotli at its best quality on them
        // cost 37 s of a build here, for nobody's page.
        if (file.endsWith('.map')) continue;
        await writeFile(
          `${file}.br`,
          await brotliAsync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } }),
        );
      }
    },
  };
}
