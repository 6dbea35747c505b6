import { readFile } from 'node:fs/promises';
import { poolFilePath } from './emulator.ts';
import { escapeMarkup } from '../lib/escape-markup.ts';

/** One message the emulator "sent": it has no mail server, so the code sits on the user record. */
export interface MailboxEntry {
  username: string;
  email: string | null;
  code: string;
  kind: string;
  sentAt: string | null;
}

interface StoredUser {
  Username?: string;
  UserStatus?: string;
  Attributes?: { Name: string; Value?: string }[];
  ConfirmationCode?: string;
  AttributeVerificationCode?: string;
  MFACode?: string;
  UserLastModifiedDate?: string;
}

/**
 * Reads the codes from the pool's JSON file: cognito-local logs each message only to its console,
 * late, but saves the pending code on the user before it answers.
 */
export async function readMailbox(emulatorDir: string, userPoolId: string): Promise<MailboxEntry[]> {
  let pool: { Users?: Record<string, StoredUser> };
  try {
    pool = JSON.parse(await readFile(poolFilePath(emulatorDir, userPoolId), 'utf8')) as typeof pool;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const entries: MailboxEntry[] = [];
  for (const user of Object.values(pool.Users ?? {})) {
    const base = {
      username: user.Username ?? '',
      email: user.Attributes?.find((attribute) => attribute.Name === 'email')?.Value ?? null,
      sentAt: user.UserLastModifiedDate ?? null,
    };
    if (user.ConfirmationCode) {
      // SignUp and ForgotPassword share the field; only an unconfirmed user is signing up.
      const kind = user.UserStatus === 'UNCONFIRMED' ? 'Sign-up confirmation' : 'Password reset';
      entries.push({ ...base, code: user.ConfirmationCode, kind });
    }
    if (user.AttributeVerificationCode) {
      entries.push({ ...base, code: user.AttributeVerificationCode, kind: 'E-mail verification' });
    }
    if (user.MFACode) entries.push({ ...base, code: user.MFACode, kind: 'Sign-in code (SMS)' });
  }
  return entries.sort((a, b) => (b.sentAt ?? '').localeCompare(a.sentAt ?? ''));
}

/**
 * A plain page with no script, so the server's CSP (scripts from this origin only) holds. It does not
 * refresh itself (a timed refresh fails WCAG 2.2.1, axe's meta-refresh): a link reloads it.
 */
export function renderMailbox(entries: MailboxEntry[]): string {
  const rows = entries
    .map(
      (entry) =>
        `<tr><td>${escapeMarkup(entry.username)}</td><td>${escapeMarkup(entry.email ?? '')}</td>` +
        `<td><strong>${escapeMarkup(entry.code)}</strong></td><td>${escapeMarkup(entry.kind)}</td>` +
        `<td>${escapeMarkup(entry.sentAt ?? '')}</td></tr>`,
    )
    .join('\n');
  const body =
    entries.length === 0
      ? '<p>No codes yet. Sign up or ask for a verification code, then this page shows it.</p>'
      : `<table>\n<thead><tr><th>User</th><th>E-mail</th><th>Code</th><th>Kind</th><th>Sent</th></tr></thead>\n<tbody>\n${rows}\n</tbody>\n</table>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Kinora local mailbox</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<style>
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem; color: #1a1b1e; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: .5rem .75rem; border-bottom: 1px solid #dee2e6; }
td:nth-child(3) { font-family: ui-monospace, monospace; font-size: 1.15rem; font-weight: 700; letter-spacing: .1em; }
a { color: #7048e8; }
</style>
</head>
<body>
<p><a href="/">&larr; Back to Kinora</a></p>
<h1>Local mailbox</h1>
<p>The local sign-in emulator sends no e-mail. The codes it would have sent are listed here, newest first. <a href="/local/mailbox">Refresh</a> to see new ones.</p>
${body}
</body>
</html>
`;
}
