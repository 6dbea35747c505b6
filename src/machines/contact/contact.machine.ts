import { assign, fromPromise, setup } from 'xstate';
import type { SnapshotFrom } from 'xstate';
import { errorMessageOf } from '@/services/api-error';
import { contactUs } from '@/services/users';
import type { ContactUsRequest, ContactUsResponse } from '@/services/schemas/users';

export type { ContactUsRequest } from '@/services/schemas/users';

export interface ContactContext {
  /** The message being sent, or the last one sent. */
  message: ContactUsRequest | null;
  /** The address the answer goes to, once a message is sent. */
  sentTo: string | null;
  /** Why the last send failed (the server's detail); null otherwise. */
  error: string | null;
}

export type ContactEvent = { type: 'contact.send'; message: ContactUsRequest } | { type: 'contact.again' };

/**
 * The contact-us form (/contact-us): editing → sending (POST users/contact-us, signed in or not) →
 * sent; a failure goes back to editing with the server's message (the form keeps what was typed).
 */
export const contactMachine = setup({
  types: {
    context: {} as ContactContext,
    events: {} as ContactEvent,
  },
  actors: {
    sendMessage: fromPromise<ContactUsResponse, ContactUsRequest>(({ input }) => contactUs(input)),
  },
  actions: {
    startSending: assign((_, params: { message: ContactUsRequest }) => ({ message: params.message, error: null })),
    setError: assign((_, params: { message: string }) => ({ error: params.message })),
    setSent: assign(({ context }) => ({ sentTo: context.message?.email ?? null, error: null })),
    clearSent: assign({ message: null, sentTo: null, error: null }),
  },
}).createMachine({
  id: 'contact',
  context: { message: null, sentTo: null, error: null },
  initial: 'editing',
  states: {
    editing: {
      on: {
        'contact.send': { target: 'sending', actions: { type: 'startSending', params: ({ event }) => ({ message: event.message }) } },
      },
    },
    sending: {
      invoke: {
        src: 'sendMessage',
        input: ({ context }) => context.message ?? { name: '', email: '', message: '' },
        onDone: { target: 'sent', actions: 'setSent' },
        onError: { target: 'editing', actions: { type: 'setError', params: ({ event }) => ({ message: errorMessageOf(event.error) }) } },
      },
    },
    sent: {
      on: { 'contact.again': { target: 'editing', actions: 'clearSent' } },
    },
  },
});

export type ContactSnapshot = SnapshotFrom<typeof contactMachine>;
