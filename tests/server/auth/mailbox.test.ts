import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { poolFilePath } from '../../../server/src/auth/emulator.ts';
import { readMailbox } from '../../../server/src/auth/mailbox.ts';

/**
 * Issue 17: `/local/mailbox` answered 500 once during a sign-up, when it read the emulator's pool
 * file while cognito-local was rewriting it.
 */

const POOL = 'local_pool';
let dir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'kinora-mailbox-'));
  file = poolFilePath(dir, POOL);
  await mkdir(path.dirname(file), { recursive: true });
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const pool = (code: string) =>
  JSON.stringify({
    Users: {
      ivy: { Username: 'ivy', UserStatus: 'UNCONFIRMED', ConfirmationCode: code, Attributes: [{ Name: 'email', Value: 'ivy@example.test' }] },
    },
  });

describe('reading the local mailbox while the emulator rewrites its file', () => {
  it('reads again when it catches the file half written', async () => {
    const whole = pool('123456');
    await writeFile(file, whole.slice(0, 40));
    let waits = 0;
    const entries = await readMailbox(dir, POOL, {
      // The emulator finishes its write while the mailbox waits to read again.
      wait: async () => {
        waits += 1;
        await writeFile(file, whole);
      },
    });
    expect(waits).toBe(1);
    expect(entries.map((entry) => entry.code)).toEqual(['123456']);
  });

  it('answers with the last whole file when it stays unreadable, and reads an empty file as being written', async () => {
    await writeFile(file, pool('654321'));
    expect((await readMailbox(dir, POOL)).map((entry) => entry.code)).toEqual(['654321']);
    await writeFile(file, '');
    const entries = await readMailbox(dir, POOL, { attempts: 2, wait: async () => undefined });
    expect(entries.map((entry) => entry.code)).toEqual(['654321']);
  });
});
