import { readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
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

type PoolFile = { Users?: Record<string, StoredUser> };

export interface ReadPoolOptions {
  /** Reads of a file that is not (yet) whole JSON before giving up. */
  attempts?: number;
  /** Waits between two reads (a short pause by default; tests pass their own step). */
  wait?: () => Promise<void>;
}

/** A pause long enough for the emulator to finish writing its pool file (it writes it whole, unsynchronised). */
const REREAD_PAUSE_MS = 25;
/** The last whole pool file read from each path, for when the emulator is rewriting it. */
const lastWhole = new Map<string, PoolFile>();

/**
 * The pool file, parsed; null when there is none yet. cognito-local rewrites the file in place on
 * every change, so a read can catch it empty or half written (issue 17: the mailbox answered 500
 * during a sign-up): such a read is retried, and if the file stays unreadable the last whole
 * version read is used.
 */
async function readPoolFile(file: string, options: ReadPoolOptions): Promise<PoolFile | null> {
  const attempts = options.attempts ?? 8;
  const wait = options.wait ?? (() => sleep(REREAD_PAUSE_MS));
  let failure: unknown;
  for (let attempt = 0; attempt < attempts; attempt += 1) {
    if (attempt > 0) await wait();
    try {
      const pool = JSON.parse(await readFile(file, 'utf8')) as PoolFile;
      lastWhole.set(file, pool);
      return pool;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      if (!(error instanceof SyntaxError)) throw error;
      failure = error;
    }
  }
  const previous = lastWhole.get(file);
  if (previous) return previous;
  throw failure;
}

/**
 * Reads the codes from the pool's JSON file: cognito-local logs each message only to its console,
 * late, but saves the pending code on the user before it answers.
 */
export async function readMailbox(emulatorDir: string, userPoolId: string, options: ReadPoolOptions = {}): Promise<MailboxEntry[]> {
  const pool = await readPoolFile(poolFilePath(emulatorDir, userPoolId), options);
  if (!pool) return [];
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
