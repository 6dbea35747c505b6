import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';

const INDEX_HTML = '<!doctype html><html><head><title>Kinora test shell</title></head><body><div id="root"></div></body></html>';
/** Public pages as scripts/prerender.ts writes them (issue 19 item 1). */
const SIGN_IN_HTML = '<!doctype html><html><head><title>Sign in · Kinora</title></head><body><div id="root" data-prerendered=""><h1>Sign in</h1></div></body></html>';
const AI_IMAGE_HTML = '<!doctype html><html><head><title>AI Image · Kinora</title></head><body><div id="root" data-prerendered=""><h1>AI Image</h1></div></body></html>';
const ASSET_JS = 'console.log("kinora asset");';
/** A built file big enough for the build to have written its `.br` and `.gz` (scripts/precompress.ts). */
const BIG_JS = `export const words = ${JSON.stringify('kinora '.repeat(400))};`;

let server: TestServer;
let staticDir: string;

beforeAll(async () => {
  staticDir = await mkdtemp(path.join(tmpdir(), 'kinora-dist-'));
  await mkdir(path.join(staticDir, 'assets'));
  await writeFile(path.join(staticDir, 'index.html'), INDEX_HTML);
  await writeFile(path.join(staticDir, 'assets', 'index-abc123.js'), ASSET_JS);
  await writeFile(path.join(staticDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  await writeFile(path.join(staticDir, 'assets', 'picture-aa11.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  await writeFile(path.join(staticDir, 'assets', 'style-bb22.css'), 'body { margin: 0; }');
  await writeFile(path.join(staticDir, 'assets', 'big-def456.js'), BIG_JS);
  await writeFile(path.join(staticDir, 'assets', 'big-def456.js.br'), brotliCompressSync(BIG_JS));
  await writeFile(path.join(staticDir, 'assets', 'big-def456.js.gz'), gzipSync(BIG_JS));
  await mkdir(path.join(staticDir, 'prerendered', 'ai-image'), { recursive: true });
  await writeFile(path.join(staticDir, 'prerendered', 'authentication.html'), SIGN_IN_HTML);
  await writeFile(path.join(staticDir, 'prerendered', 'authentication.html.br'), brotliCompressSync(SIGN_IN_HTML));
  await writeFile(path.join(staticDir, 'prerendered', 'ai-image', 'index.html'), AI_IMAGE_HTML);
  server = await startTestServer({ staticDir });
});
afterAll(async () => {
  await server?.close();
  await rm(staticDir, { recursive: true, force: true });
});

/** The CSP as directive → sources. */
function parseCsp(header: string | null): Map<string, string[]> {
  const directives = new Map<string, string[]>();
  for (const part of (header ?? '').split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) directives.set(name, sources);
  }
  return directives;
}

function expectSecurityHeaders(headers: Headers): void {
  const csp = parseCsp(headers.get('content-security-policy'));
  expect(csp.get('default-src')).toEqual(["'self'"]);
  expect(csp.get('script-src')).toEqual(["'self'"]);
  expect(csp.get('script-src')).not.toContain("'unsafe-inline'");
  expect(csp.get('object-src')).toEqual(["'none'"]);
  expect(csp.get('base-uri')).toEqual(["'none'"]);
  expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
  expect(headers.get('x-content-type-options')).toBe('nosniff');
  expect(headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
  expect(headers.get('x-frame-options')).toBe('DENY');
}

describe('security headers on every response', () => {
  it('are on an API answer', async () => {
    const response = await fetch(`${server.url}/api/health`);
    expect(response.status).toBe(200);
    expectSecurityHeaders(response.headers);
  });

  it('are on API errors: 401, 404 and 400', async () => {
    const unauthenticated = await fetch(`${server.url}/api/credits/get`);
    expect(unauthenticated.status).toBe(401);
    expectSecurityHeaders(unauthenticated.headers);
    const missing = await fetch(`${server.url}/api/nothing-here`);
    expect(missing.status).toBe(404);
    expectSecurityHeaders(missing.headers);
    const invalid = await fetch(`${server.url}/api/users/contact-us`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(invalid.status).toBe(400);
    expectSecurityHeaders(invalid.headers);
  });

  it('are on the answers Fastify gives before routing, to URLs it cannot read', async () => {
    for (const pathname of ['/%', '/api/%', '/api/users/%E0%A4%A']) {
      const response = await fetch(`${server.url}${pathname}`);
      expect(response.status, pathname).toBe(400);
      expectSecurityHeaders(response.headers);
      expect(await response.json()).toEqual({ detail: 'The request could not be read.' });
    }
  });

  it('are on the answers of the /cognito front and the local mailbox', async () => {
    const front = await fetch(`${server.url}/cognito/`, { method: 'POST', body: '{}' });
    expect(front.status).toBe(400);
    expectSecurityHeaders(front.headers);
  });

  it('are on the SPA index, a history-fallback page and a file that can be opened as a page', async () => {
    for (const pathname of ['/', '/ai-image/text-to-image', '/favicon.svg', '/assets/picture-aa11.svg']) {
      const response = await fetch(`${server.url}${pathname}`);
      expect(response.status, pathname).toBe(200);
      expectSecurityHeaders(response.headers);
    }
  });

  it('leave only the headers a subresource uses on hashed scripts and styles', async () => {
    for (const pathname of ['/assets/index-abc123.js', '/assets/big-def456.js', '/assets/style-bb22.css']) {
      const response = await fetch(`${server.url}${pathname}`, { headers: { 'Accept-Encoding': 'br' } });
      expect(response.status, pathname).toBe(200);
      expect(response.headers.get('x-content-type-options'), pathname).toBe('nosniff');
      expect(response.headers.get('cross-origin-resource-policy'), pathname).toBe('same-origin');
      for (const name of ['content-security-policy', 'x-frame-options', 'referrer-policy', 'cross-origin-opener-policy', 'x-xss-protection']) {
        expect(response.headers.get(name), `${pathname} ${name}`).toBeNull();
      }
    }
  });
});

describe('the built SPA', () => {
  it('serves index.html at / without caching it', async () => {
    const response = await fetch(`${server.url}/`);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(await response.text()).toBe(INDEX_HTML);
  });

  it('serves hashed assets as immutable files', async () => {
    const response = await fetch(`${server.url}/assets/index-abc123.js`);
    expect(response.headers.get('content-type')).toMatch(/javascript/);
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await response.text()).toBe(ASSET_JS);
  });

  it.each(['/ai-image/text-to-image', '/account', '/@ana.lee', '/404', '/ai-video/image-to-video?tool=kling'])(
    'falls back to index.html for %s',
    async (pathname) => {
      const response = await fetch(`${server.url}${pathname}`, { headers: { Accept: 'text/html' } });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await response.text()).toBe(INDEX_HTML);
    },
  );

  it.each([
    ['/authentication', SIGN_IN_HTML],
    ['/ai-image/', AI_IMAGE_HTML],
  ])('answers %s with the page the build prerendered, not cached', async (pathname, html) => {
    const response = await fetch(`${server.url}${pathname}`, { headers: { Accept: 'text/html', 'Accept-Encoding': 'identity' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(await response.text()).toBe(html);
  });

  it("sends the build's brotli copy of a prerendered page", async () => {
    const response = await fetch(`${server.url}/authentication`, { headers: { Accept: 'text/html', 'Accept-Encoding': 'br' } });
    expect(response.headers.get('content-encoding')).toBe('br');
    expect(await response.text()).toBe(SIGN_IN_HTML);
  });

  // A query may change the first render (a sign-in redirect, a tool's settings), and `/ai-image` is
  // not the menu's `/ai-image/`: those get the bare shell, which draws the page itself.
  it.each(['/authentication?redirect_uri=x', '/ai-image', '/authentication/', '/prerendered/authentication'])(
    'answers %s with the bare shell',
    async (pathname) => {
      const response = await fetch(`${server.url}${pathname}`, { headers: { Accept: 'text/html' } });
      expect(await response.text()).toBe(INDEX_HTML);
    },
  );

  it('falls back for a page path even when the client does not say it accepts HTML', async () => {
    const response = await fetch(`${server.url}/ai-image/text-to-image`, { headers: { Accept: '*/*' } });
    expect(await response.text()).toBe(INDEX_HTML);
  });

  it.each([
    ['br, gzip', 'br'],
    ['gzip', 'gzip'],
  ])('sends the build\'s compressed copy of a file to a browser accepting %s, varying on Accept-Encoding', async (accepted, sent) => {
    const response = await fetch(`${server.url}/assets/big-def456.js`, { headers: { 'Accept-Encoding': accepted } });
    expect(response.headers.get('content-encoding')).toBe(sent);
    expect(response.headers.get('vary')).toMatch(/accept-encoding/i);
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await response.text()).toBe(BIG_JS);
  });

  it('answers a second visit to the HTML with 304 on its ETag', async () => {
    const first = await fetch(`${server.url}/`);
    const etag = first.headers.get('etag');
    expect(etag).toBeTruthy();
    // node:http, as a browser's revalidation sends it (fetch adds Cache-Control: no-cache to a conditional request).
    const status = await new Promise<number | undefined>((resolve, reject) => {
      get(`${server.url}/`, { headers: { 'If-None-Match': etag! } }, (answer) => {
        answer.resume();
        resolve(answer.statusCode);
      }).on('error', reject);
    });
    expect(status).toBe(304);
  });

  it('compresses a JSON answer of 1 KB or more for a client that accepts it, and not for one that does not', async () => {
    const plain = await fetch(`${server.url}/api/frontend-configurations`, { headers: { 'Accept-Encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
    const body = await plain.text();
    expect(body.length).toBeGreaterThan(1024);
    for (const encoding of ['br', 'gzip']) {
      const compressed = await fetch(`${server.url}/api/frontend-configurations`, { headers: { 'Accept-Encoding': encoding } });
      expect(compressed.headers.get('content-encoding'), encoding).toBe(encoding);
      expect(compressed.headers.get('vary'), encoding).toMatch(/accept-encoding/i);
      expect(await compressed.text(), encoding).toBe(body);
    }
  });

  it('answers a missing file with 404, not with the app shell', async () => {
    const response = await fetch(`${server.url}/assets/missing-chunk.js`, { headers: { Accept: '*/*' } });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ detail: 'Not found.' });
  });

  it('never answers /api, /cognito or /local paths with the app shell', async () => {
    for (const pathname of ['/api/unknown/call', '/local/not-a-page', '/cognito/not-a-page']) {
      const response = await fetch(`${server.url}${pathname}`, { headers: { Accept: 'text/html' } });
      expect(response.status, pathname).toBe(404);
      expect(response.headers.get('content-type'), pathname).toMatch(/^application\/json/);
    }
  });

  it('answers a POST to a page path with 404 instead of the app shell', async () => {
    const response = await fetch(`${server.url}/ai-image/text-to-image`, { method: 'POST' });
    expect(response.status).toBe(404);
  });
});
