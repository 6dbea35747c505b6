import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isCompressibleFile } from '../lib/compressible.ts';
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

/**
 * Serves the built SPA at `/` and answers every unknown path: the app shell for page
 * navigations (history fallback), `{ detail }` 404 otherwise.
 */
export async function registerSpa(app: FastifyInstance, staticDir: string | undefined): Promise<void> {
  if (staticDir) {
    await app.register(fastifyStatic, {
      root: path.resolve(staticDir),
      index: ['index.html'],
      // The build writes `.br` and `.gz` beside each text file (scripts/precompress.ts): sent to
      // browsers that accept them, so the same URL has several bodies (Vary).
      preCompressed: true,
      cacheControl: false,
      setHeaders(response, filePath) {
        const isAsset = filePath.includes(`${path.sep}assets${path.sep}`);
        response.setHeader('Cache-Control', isAsset ? IMMUTABLE : NO_CACHE);
        if (isCompressibleFile(filePath, true)) response.setHeader('Vary', 'Accept-Encoding');
      },
    });
  }

  app.setNotFoundHandler(async (request: FastifyRequest, reply: FastifyReply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    if (staticDir && wantsAppShell(request, pathname)) {
      return reply.header('Cache-Control', NO_CACHE).sendFile('index.html');
    }
    return reply.code(404).send({ detail: DETAILS.notFound });
  });
}
