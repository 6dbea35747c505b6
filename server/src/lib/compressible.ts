import type { FastifyCompressOptions } from '@fastify/compress';

/**
 * The text files of a build that travel compressed: the build writes a `.br` and a `.gz` of each
 * (scripts/precompress.ts), and the server sends those with `Vary: Accept-Encoding` (routes/spa.ts).
 */
export const COMPRESSIBLE_EXTENSIONS = ['js', 'mjs', 'css', 'html', 'svg', 'json', 'txt', 'map', 'webmanifest'] as const;

/** A file of one of those kinds, or (`withCopies`) one of its compressed copies. */
export const isCompressibleFile = (file: string, withCopies = false): boolean =>
  new RegExp(`\\.(${COMPRESSIBLE_EXTENSIONS.join('|')})${withCopies ? '(\\.br|\\.gz)?' : ''}$`).test(file);

/**
 * How the API server compresses what it answers (@fastify/compress): JSON of 1 KB or more, brotli
 * at the plugin's quality 4, else gzip. The Lighthouse bench's reference page is served the same way.
 */
export const ANSWER_COMPRESSION: FastifyCompressOptions = { encodings: ['br', 'gzip'], threshold: 1024 };
