import { readdir } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isCompressibleFile } from '../lib/compressible.ts';
import { PRERENDERED_DIR, prerenderedFile } from '../lib/prerendered.ts';
import { DETAILS } from './messages.ts';

/** Paths the server answers itself; the SPA's history fallback never covers them. */
const SERVER_PREFIXES = ['/api', '/cognito', '/local'];

const isServerPath = (pathname: string): boolean =>
  SERVER_PREFIXES.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`));

/**
 * A navigation the SPA should answer: a GET a browser sends for a page (it accepts HTML), or a
 * path whose last segment has no file extension. `/assets/missing.js` stays a 404 so a stale
 * chunk fails loudly instead of being parsed as HTML; `/@ana.lee` (a profile) still gets the app.
 */
function wantsAppShell(request: FastifyRequest, pathname: string): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  if (isServerPath(pathname)) return false;
  if (request.headers.accept?.includes('text/html')) return true;
  const last = pathname.slice(pathname.lastIndexOf('/') + 1);
  return last.startsWith('@') || !last.includes('.');
}

const NO_CACHE = 'no-cache';
/** Vite puts content-hashed files under /assets, so they never change under one name. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** Hashed files never shown as a page of their own (scripts, styles, fonts, source maps), or their precompressed copies. */
const SUBRESOURCE = /\.(js|mjs|css|woff2?|map)(\.br|\.gz)?$/;
/**
 * Headers that only mean something on a document (helmet sets them on every answer): a script or
 * a stylesheet is governed by the CSP of the page that loads it, so on these files they are bytes
 * the browser downloads and ignores, about 650 per file and 20 files a page (issue 19 item 5:
 * lean headers on hashed assets). `X-Content-Type-Options` and `Cross-Origin-Resource-Policy`
 * apply to subresources and stay. Pictures and SVG keep everything: an SVG opened by itself is a
 * document.
 */
const DOCUMENT_ONLY_HEADERS = [
  'Content-Security-Policy',
  'Cross-Origin-Opener-Policy',
  'Origin-Agent-Cluster',
  'Referrer-Policy',
  'X-DNS-Prefetch-Control',
  'X-Download-Options',
  'X-Frame-Options',
  'X-Permitted-Cross-Domain-Policies',
  'X-XSS-Protection',
];

/** The files under `prerendered/` in the build (none when the build has no such folder). */
async function prerenderedFiles(staticDir: string): Promise<Set<string>> {
  try {
    const entries = await readdir(path.join(staticDir, PRERENDERED_DIR), { recursive: true });
    return new Set(entries.filter((entry) => entry.endsWith('.html')).map((entry) => entry.split(path.sep).join('/')));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return new Set();
    throw error;
  }
}

/**
 * Serves the built SPA and answers every unknown path: for a page navigation, the page as the
 * build prerendered it (issue 19 item 1: the public pages, when the address has no query, which
 * could change the first render) or else the app shell (history fallback); `{ detail }` 404
 * otherwise. `/` itself goes through the same choice, so index.html is not served as a directory index.
 */
export async function registerSpa(app: FastifyInstance, staticDir: string | undefined): Promise<void> {
  const prerendered = staticDir ? await prerenderedFiles(staticDir) : new Set<string>();
  const pageFile = (url: string): string => {
    const [pathname = '/', query] = url.split('?');
    const file = prerenderedFile(pathname);
    return query === undefined && prerendered.has(file) ? `${PRERENDERED_DIR}/${file}` : 'index.html';
  };
  if (staticDir) {
    await app.register(fastifyStatic, {
      root: path.resolve(staticDir),
      index: false,
      // The build writes `.br` and `.gz` beside each text file (scripts/precompress.ts): sent to
      // browsers that accept them, so the same URL has several bodies (Vary).
      preCompressed: true,
      cacheControl: false,
      setHeaders(response, filePath) {
        const isAsset = filePath.includes(`${path.sep}assets${path.sep}`);
        response.setHeader('Cache-Control', isAsset ? IMMUTABLE : NO_CACHE);
        if (isAsset && SUBRESOURCE.test(filePath)) {
          // The plugin passes the raw Node response (`reply.raw`), though its type names only
          // getHeader and setHeader.
          const raw = response as unknown as ServerResponse;
          for (const name of DOCUMENT_ONLY_HEADERS) raw.removeHeader(name);
        }
        if (isCompressibleFile(filePath, true)) response.setHeader('Vary', 'Accept-Encoding');
      },
    });
  }

  // The static files' wildcard route would answer `/` with a 403 (a folder with no index).
  if (staticDir) app.get('/', (request, reply) => reply.header('Cache-Control', NO_CACHE).sendFile(pageFile(request.url)));

  app.setNotFoundHandler(async (request: FastifyRequest, reply: FastifyReply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    if (staticDir && wantsAppShell(request, pathname)) {
      return reply.header('Cache-Control', NO_CACHE).sendFile(pageFile(request.url));
    }
    return reply.code(404).send({ detail: DETAILS.notFound });
  });
}
