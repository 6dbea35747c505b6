/**
 * A file name safe to send and store: every character other than an ASCII letter, a digit,
 * "_" or "." becomes "_" (SPEC §5).
 */
export function safeFileName(name: string): string {
  return name.replace(/[^A-Za-z0-9_.]/g, '_');
}
