import type { FastifyInstance } from 'fastify';
import { escapeMarkup } from '../lib/escape-markup.ts';
import type { Identity } from './types.ts';

export const REDIRECT_TARGET_PATH = '/local/redirect-target';

/** What the page found in `code`; never the token itself. */
export type CodeCheck =
  | { kind: 'missing' }
  | { kind: 'invalid' }
  | { kind: 'valid'; user: Pick<Identity, 'username' | 'preferredUsername' | 'email'> };

/**
 * SPEC §4 sends `code` as the base64 of the access token. A `+` of standard base64 arrives as a
 * space when the sender did not percent-encode it; base64url is accepted as well.
 */
export function decodeCode(code: string): string {
  return Buffer.from(code.trim().replaceAll(' ', '+'), 'base64').toString('utf8');
}

/**
 * `/local/redirect-target` (local mode): stands in for an external OAuth client that the app sends
 * a signed-in user to with `?code=<base64 of the access token>&state=…` (SPEC §4). It says whether
 * the code is a valid access token and for whom, checked with the identity provider. The token is
 * never shown, logged or cached, and the page sends no Referer.
 */
export function registerRedirectTarget(app: FastifyInstance, verifyAccessToken: (token: string) => Promise<Identity | null>): void {
  app.get<{ Querystring: { code?: string | string[]; state?: string | string[] } }>(
    REDIRECT_TARGET_PATH,
    // Fastify logs request URLs at level info, and this URL carries a token: stay below that here.
    { logLevel: 'warn' },
    async (request, reply) => {
      const code = single(request.query.code);
      const state = single(request.query.state);
      let check: CodeCheck = { kind: 'missing' };
      if (code) {
        const identity = await verifyAccessToken(decodeCode(code));
        check = identity
          ? { kind: 'valid', user: { username: identity.username, preferredUsername: identity.preferredUsername, email: identity.email } }
          : { kind: 'invalid' };
      }
      return reply
        .header('cache-control', 'no-store')
        .header('referrer-policy', 'no-referrer')
        .type('text/html; charset=utf-8')
        .send(renderRedirectTarget(state, check));
    },
  );
}

const single = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);

function describeCheck(check: CodeCheck): string {
  switch (check.kind) {
    case 'missing':
      return '<p class="bad">No <code>code</code> was received.</p>';
    case 'invalid':
      return '<p class="bad">The code is <strong>not</strong> a valid access token (bad signature, expired, another app client, or not a token at all).</p>';
    case 'valid': {
      const { username, preferredUsername, email } = check.user;
      const details = [
        `<dt>User</dt><dd>${escapeMarkup(username)}</dd>`,
        preferredUsername ? `<dt>Handle</dt><dd>@${escapeMarkup(preferredUsername)}</dd>` : '',
        email ? `<dt>E-mail</dt><dd>${escapeMarkup(email)}</dd>` : '',
      ].join('');
      return `<p class="good">The code is a valid access token for user <strong>${escapeMarkup(username)}</strong>.</p>\n<dl>${details}</dl>`;
    }
  }
}

/** A plain page with no script, so the server's CSP (scripts from this origin only) holds. */
export function renderRedirectTarget(state: string | undefined, check: CodeCheck): string {
  const stateLine =
    state === undefined ? '<p>No <code>state</code> was received.</p>' : `<p>State: <output id="state">${escapeMarkup(state)}</output></p>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Partner app (local stand-in)</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<style>
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; max-width: 48rem; margin: 2rem auto; padding: 0 1rem; color: #1a1b1e; }
.good { color: #2b8a3e; } .bad { color: #c92a2a; }
dt { font-weight: 600; } dd { margin: 0 0 .5rem 0; }
output { font-family: ui-monospace, monospace; }
a { color: #7048e8; }
</style>
</head>
<body>
<h1>Signed in to the partner app</h1>
<p>This page stands in for an external app that sent you to Kinora to sign in (SPEC §4 redirect). It received:</p>
${stateLine}
${describeCheck(check)}
<p><a href="/">&larr; Back to Kinora</a></p>
</body>
</html>
`;
}
