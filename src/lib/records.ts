/** Reading loosely typed JSON (media `args`, stored values, error bodies) without casts. */

/** A plain object (not null, not an array). */
export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `record[key]` when it is a non-empty string; undefined otherwise (absent, empty, another type). */
export const stringArg = (record: Readonly<Record<string, unknown>> | null | undefined, key: string): string | undefined => {
  const value = record?.[key];
  return typeof value === 'string' && value !== '' ? value : undefined;
};
