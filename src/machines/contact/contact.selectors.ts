import type { ContactSnapshot } from '@/machines/contact/contact.machine';

export type ContactStatus = 'editing' | 'sending' | 'sent';

export function selectContactStatus(snapshot: ContactSnapshot): ContactStatus {
  if (snapshot.matches('sending')) return 'sending';
  if (snapshot.matches('sent')) return 'sent';
  return 'editing';
}

export const selectContactError = (snapshot: ContactSnapshot): string | null => snapshot.context.error;
export const selectContactSentTo = (snapshot: ContactSnapshot): string | null => snapshot.context.sentTo;
