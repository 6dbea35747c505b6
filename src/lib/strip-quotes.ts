/** Strips one leading and one trailing double quote, as SPEC §5 asks for quoted strings. */
export function stripQuotes(value: string): string {
  const withoutLeading = value.startsWith('"') ? value.slice(1) : value;
  return withoutLeading.endsWith('"') ? withoutLeading.slice(0, -1) : withoutLeading;
}
