import { createHmac } from 'node:crypto';

/**
 * An authenticator app in a few lines (RFC 6238 defaults: HMAC-SHA1, 30-second steps, 6 digits),
 * so the server and browser tests can answer with the code a person would read off their phone.
 */
function base32Decode(text: string): Buffer {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = 0;
  let value = 0;
  const bytes: number[] = [];
  for (const character of text.replace(/=+$/, '').toUpperCase()) {
    const index = alphabet.indexOf(character);
    if (index < 0) throw new Error(`not base32: ${character}`);
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(bytes);
}

export function totp(secret: string, at = Date.now()): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at / 1000 / 30)));
  const digest = createHmac('sha1', base32Decode(secret)).update(counter).digest();
  const offset = (digest.at(-1) ?? 0) & 0x0f;
  const code = (digest.readUInt32BE(offset) & 0x7fffffff) % 1_000_000;
  return code.toString().padStart(6, '0');
}

/** A six-digit code the app does not show now, nor in the step before or after (the emulator's tolerance). */
export function wrongTotp(secret: string, at = Date.now()): string {
  const accepted = new Set([-30_000, 0, 30_000].map((shift) => totp(secret, at + shift)));
  let code = Number(totp(secret, at - 10 * 60_000));
  while (accepted.has(code.toString().padStart(6, '0'))) code = (code + 1) % 1_000_000;
  return code.toString().padStart(6, '0');
}

/** Waits, when the current 30-second step is about to end, so a typed code is still current when it arrives. */
export async function freshTotp(secret: string, margin = 8_000): Promise<string> {
  const left = 30_000 - (Date.now() % 30_000);
  if (left < margin) await new Promise((resolve) => setTimeout(resolve, left + 200));
  return totp(secret);
}
