import { CONTACT_EMAIL_MAX, CONTACT_MESSAGE_MAX, CONTACT_MESSAGE_MIN, CONTACT_NAME_MAX } from './contact';

/** Kinora's texts of the contact-us page (SPEC §1 "contact us"; SPEC gives no wording). */
export const CONTACT_TEXTS = {
  title: 'Contact us',
  intro: 'Questions about credits, a result or your organisation? Write to us and we answer by e-mail.',
  orEmail: 'You can also write to',
  name: 'Your name',
  email: 'Your e-mail',
  message: 'Message',
  nameRequired: 'Write your name.',
  nameTooLong: `Use at most ${CONTACT_NAME_MAX} characters.`,
  emailInvalid: 'Write a valid e-mail address.',
  emailTooLong: `Use at most ${CONTACT_EMAIL_MAX} characters.`,
  messageTooShort: `Write at least ${CONTACT_MESSAGE_MIN} characters.`,
  messageTooLong: `Use at most ${CONTACT_MESSAGE_MAX} characters.`,
  counter: (length: number): string => `${length} / ${CONTACT_MESSAGE_MAX} characters`,
  submit: 'Send message',
  sending: 'Sending…',
  sent: (email: string): string => `Message sent — we answer at ${email} within two working days.`,
  sentTitle: 'Thank you',
  another: 'Write another message',
  failedTitle: 'Your message was not sent',
} as const;
