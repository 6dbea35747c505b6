import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, setup, waitFor } from 'xstate';
import type { ActorRefFrom } from 'xstate';
import { emailVerificationMachine } from '@/machines/session/email-verification.machine';
import type { EmailVerificationParentEvent } from '@/machines/session/email-verification.machine';
import {
  selectCodeSentTo,
  selectVerificationBusy,
  selectVerificationOpen,
} from '@/machines/session/email-verification.selectors';

/** The machine as the session spawns it: a child whose reports reach its parent. */
function startVerification(options: { send?: () => Promise<string | null>; confirm?: (code: string) => Promise<void> } = {}) {
  const sendCode = vi.fn(options.send ?? (async () => 'a***@e***.com'));
  const confirmCode = vi.fn(options.confirm ?? (async () => {}));
  const reports: EmailVerificationParentEvent[] = [];
  const parent = setup({
    types: { events: {} as EmailVerificationParentEvent },
    actors: {
      emailVerification: emailVerificationMachine.provide({
        actors: {
          sendCode: fromPromise(() => sendCode()),
          confirmCode: fromPromise(({ input }) => confirmCode(input.code)),
        },
      }),
    },
  }).createMachine({
    invoke: { src: 'emailVerification', id: 'emailVerification', input: {} },
    on: {
      'emailVerification.verified': { actions: ({ event }) => reports.push(event) },
      'emailVerification.failed': { actions: ({ event }) => reports.push(event) },
      'emailVerification.sendFailed': { actions: ({ event }) => reports.push(event) },
    },
  });
  const actor = createActor(parent).start();
  const verification = actor.getSnapshot().children.emailVerification as ActorRefFrom<typeof emailVerificationMachine>;
  return { actor, verification, sendCode, confirmCode, reports };
}

describe('emailVerification machine (SPEC §2.9.1, §4 "E-mail verification")', () => {
  it('opens without sending a code; Resend sends one and shows where it went', async () => {
    const { actor, verification, sendCode } = startVerification();
    expect(selectVerificationOpen(verification.getSnapshot())).toBe(true);
    expect(selectCodeSentTo(verification.getSnapshot())).toBeNull();
    expect(sendCode).not.toHaveBeenCalled();

    verification.send({ type: 'emailVerification.resend' });
    expect(selectVerificationBusy(verification.getSnapshot())).toBe(true);
    const snapshot = await waitFor(verification, (s) => !selectVerificationBusy(s));
    expect(sendCode).toHaveBeenCalledTimes(1);
    expect(selectCodeSentTo(snapshot)).toBe('a***@e***.com');
    actor.stop();
  });

  it('refuses an empty code', () => {
    const { actor, verification, confirmCode } = startVerification();
    for (const code of ['', '   ']) {
      verification.send({ type: 'emailVerification.verify', code });
      expect(verification.getSnapshot().can({ type: 'emailVerification.verify', code })).toBe(false);
    }
    expect(selectVerificationBusy(verification.getSnapshot())).toBe(false);
    expect(confirmCode).not.toHaveBeenCalled();
    actor.stop();
  });

  it('confirms the code for "email", reports success and closes', async () => {
    const { actor, verification, confirmCode, reports } = startVerification();
    verification.send({ type: 'emailVerification.verify', code: ' 123456 ' });
    expect(selectVerificationBusy(verification.getSnapshot())).toBe(true);
    await waitFor(verification, (s) => s.status === 'done');
    expect(confirmCode).toHaveBeenCalledWith('123456');
    expect(reports).toEqual([{ type: 'emailVerification.verified' }]);
    expect(selectVerificationOpen(verification.getSnapshot())).toBe(false);
    actor.stop();
  });

  it('reports the server message of a wrong code and stays open for another try', async () => {
    const { actor, verification, reports } = startVerification({
      confirm: async () => {
        throw Object.assign(new Error('Invalid verification code provided, please try again.'), { name: 'CodeMismatchException' });
      },
    });
    verification.send({ type: 'emailVerification.verify', code: '000000' });
    const snapshot = await waitFor(verification, (s) => !selectVerificationBusy(s));
    expect(reports).toEqual([
      { type: 'emailVerification.failed', message: 'Invalid verification code provided, please try again.' },
    ]);
    expect(selectVerificationOpen(snapshot)).toBe(true);
    actor.stop();
  });

  it('reports a code that could not be sent', async () => {
    const { actor, verification, reports } = startVerification({
      send: async () => {
        throw new Error('Attempt limit exceeded, please try after some time.');
      },
    });
    verification.send({ type: 'emailVerification.resend' });
    await waitFor(verification, (s) => !selectVerificationBusy(s));
    expect(reports).toEqual([
      { type: 'emailVerification.sendFailed', message: 'Attempt limit exceeded, please try after some time.' },
    ]);
    actor.stop();
  });

  it('closes on Cancel and ignores Verify and Resend afterwards', () => {
    const { actor, verification, sendCode, confirmCode } = startVerification();
    verification.send({ type: 'emailVerification.cancel' });
    expect(selectVerificationOpen(verification.getSnapshot())).toBe(false);
    verification.send({ type: 'emailVerification.resend' });
    verification.send({ type: 'emailVerification.verify', code: '123456' });
    expect(sendCode).not.toHaveBeenCalled();
    expect(confirmCode).not.toHaveBeenCalled();
    actor.stop();
  });
});
