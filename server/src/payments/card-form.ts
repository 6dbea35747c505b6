import { TEST_CARDS } from '../../../src/config/billing.ts';
import type { CardDetails } from '../db/payments.ts';

/** The checkout form's fields, as posted (application/x-www-form-urlencoded). */
export interface CardFormValues {
  number: string;
  expiry: string;
  cvc: string;
  name: string;
}

export type CardField = keyof CardFormValues;
export type CardFieldErrors = Partial<Record<CardField, string>>;

export const CARD_FORM_TEXTS = {
  numberInvalid: 'Enter a valid card number (13 to 19 digits).',
  expiryFormat: 'Enter the expiry date as MM/YY.',
  expiryPast: 'This card has expired. Check the expiry date.',
  cvcInvalid: 'Enter the 3 or 4 digit security code (CVC).',
  nameMissing: 'Enter the name on the card.',
  nameTooLong: 'The name can be at most 100 characters.',
  declined: 'Your card was declined. Try another card.',
} as const;

export type CardCheck =
  | { result: 'invalid'; errors: CardFieldErrors }
  /** The provider's test card that is always declined. */
  | { result: 'declined'; card: CardDetails }
  | { result: 'approved'; card: CardDetails };

const digitsOf = (value: string): string => value.replace(/[\s-]/g, '');

/** The Luhn checksum every real card number passes. */
function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let index = 0; index < digits.length; index += 1) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

function brandOf(digits: string): string {
  if (digits.startsWith('4')) return 'Visa';
  if (/^5[1-5]/.test(digits) || /^2[2-7]/.test(digits)) return 'Mastercard';
  if (/^3[47]/.test(digits)) return 'American Express';
  return 'Card';
}

/** Reads a form body (strings, maybe repeated) into the four fields; anything else is ignored. */
export function readCardForm(body: unknown): CardFormValues & { action: string } {
  const record = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const text = (key: string): string => {
    const value = record[key];
    const first = Array.isArray(value) ? value[0] : value;
    return typeof first === 'string' ? first : '';
  };
  return { number: text('number'), expiry: text('expiry'), cvc: text('cvc'), name: text('name'), action: text('action') };
}

/**
 * Checks the card as the provider's test mode does: the form's fields must be well formed; the
 * decline test card is declined; any other valid number pays.
 */
export function checkCard(values: CardFormValues, now = new Date()): CardCheck {
  const errors: CardFieldErrors = {};
  const digits = digitsOf(values.number);
  if (!/^\d{13,19}$/.test(digits) || !passesLuhn(digits)) errors.number = CARD_FORM_TEXTS.numberInvalid;

  const expiry = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(values.expiry);
  let expMonth = 0;
  let expYear = 0;
  if (!expiry) {
    errors.expiry = CARD_FORM_TEXTS.expiryFormat;
  } else {
    expMonth = Number(expiry[1]);
    expYear = Number(expiry[2]);
    if (expYear < 100) expYear += 2000;
    if (expMonth < 1 || expMonth > 12) errors.expiry = CARD_FORM_TEXTS.expiryFormat;
    else if (expYear * 12 + expMonth < now.getUTCFullYear() * 12 + now.getUTCMonth() + 1) errors.expiry = CARD_FORM_TEXTS.expiryPast;
  }

  if (!/^\d{3,4}$/.test(values.cvc.trim())) errors.cvc = CARD_FORM_TEXTS.cvcInvalid;
  const name = values.name.trim();
  if (name === '') errors.name = CARD_FORM_TEXTS.nameMissing;
  else if (name.length > 100) errors.name = CARD_FORM_TEXTS.nameTooLong;

  if (Object.keys(errors).length > 0) return { result: 'invalid', errors };
  const card: CardDetails = { brand: brandOf(digits), last4: digits.slice(-4), expMonth, expYear };
  return digits === digitsOf(TEST_CARDS.decline) ? { result: 'declined', card } : { result: 'approved', card };
}
