import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Mock } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { contactMachine, type ContactUsRequest } from '@/machines/contact/contact.machine';
import { selectContactError, selectContactSentTo, selectContactStatus } from '@/machines/contact/contact.selectors';
import { httpError } from '../generation-job/generation-job.fixtures';

const message: ContactUsRequest = { name: 'Ada', email: 'ada@example.com', message: 'How do organisations work?' };
const flush = () => vi.advanceTimersByTimeAsync(0);

let send: Mock<(message: ContactUsRequest) => Promise<{ id: string }>>;

beforeEach(() => {
  vi.useFakeTimers();
  send = vi.fn(async () => ({ id: 'msg-1' }));
});
afterEach(() => vi.useRealTimers());

function start() {
  const actor = createActor(
    contactMachine.provide({ actors: { sendMessage: fromPromise<{ id: string }, ContactUsRequest>(({ input }) => send(input)) } }),
  );
  actor.start();
  return actor;
}

describe('the contact form', () => {
  it('sends the message and remembers where the answer goes', async () => {
    const actor = start();
    actor.send({ type: 'contact.send', message });
    expect(selectContactStatus(actor.getSnapshot())).toBe('sending');
    await flush();
    expect(send).toHaveBeenCalledWith(message);
    expect(selectContactStatus(actor.getSnapshot())).toBe('sent');
    expect(selectContactSentTo(actor.getSnapshot())).toBe('ada@example.com');

    actor.send({ type: 'contact.again' });
    expect(selectContactStatus(actor.getSnapshot())).toBe('editing');
    expect(selectContactSentTo(actor.getSnapshot())).toBeNull();
  });

  it('goes back to editing with the server message when sending fails, and clears it on the next try', async () => {
    send.mockRejectedValueOnce(httpError(400, 'Request body is invalid: email: Invalid email address'));
    const actor = start();
    actor.send({ type: 'contact.send', message });
    await flush();
    expect(selectContactStatus(actor.getSnapshot())).toBe('editing');
    expect(selectContactError(actor.getSnapshot())).toBe('Request body is invalid: email: Invalid email address');

    actor.send({ type: 'contact.send', message });
    expect(selectContactError(actor.getSnapshot())).toBeNull();
    await flush();
    expect(selectContactStatus(actor.getSnapshot())).toBe('sent');
  });

  it('ignores a second send while one is on its way', async () => {
    const actor = start();
    actor.send({ type: 'contact.send', message });
    actor.send({ type: 'contact.send', message: { ...message, message: 'Another one entirely' } });
    await flush();
    expect(send).toHaveBeenCalledTimes(1);
  });
});
