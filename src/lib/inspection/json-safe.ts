/**
 * Machine contexts may hold actor refs, Files, Blobs, Dates, functions and cycles. The inspector
 * keeps and exports them as plain JSON: refs become `{ ref: id }`, files their name and size, and
 * deep or long values are cut with a visible marker. Secret-looking keys are redacted.
 */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export const JSON_SAFE_LIMITS = { depth: 6, arrayLength: 50, stringLength: 500, keys: 60 } as const;

const TRUNCATED = '…';
export const REDACTED = '[redacted]';

/**
 * Keys whose values never reach the inspector's screen or an exported log: passwords, tokens,
 * one-time codes, keys and card details a machine may hold while it works.
 */
export const SECRET_KEY = /password|token|secret|api_?key|authorization|cvc|otp|^code$|card_?number/i;

function isActorRef(value: object): value is { id: string; sessionId: string; send: unknown } {
  const candidate = value as { id?: unknown; sessionId?: unknown; send?: unknown };
  return typeof candidate.sessionId === 'string' && typeof candidate.send === 'function';
}

function convert(value: unknown, depth: number, seen: WeakSet<object>): JsonValue {
  if (value === null || value === undefined) return null;
  switch (typeof value) {
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? value : String(value);
    case 'string':
      return value.length > JSON_SAFE_LIMITS.stringLength ? `${value.slice(0, JSON_SAFE_LIMITS.stringLength)}${TRUNCATED}` : value;
    case 'bigint':
      return value.toString();
    case 'symbol':
      return value.toString();
    case 'function':
      return `[function ${value.name || 'anonymous'}]`;
  }
  const object = value as object;
  if (isActorRef(object)) return { ref: (object as { id: string }).id };
  if (typeof File !== 'undefined' && object instanceof File) return { file: object.name, size: object.size, type: object.type };
  if (typeof Blob !== 'undefined' && object instanceof Blob) return { blob: object.type, size: object.size };
  if (object instanceof Date) return Number.isNaN(object.getTime()) ? 'Invalid Date' : object.toISOString();
  if (object instanceof Error) return { error: object.name, message: object.message };
  if (object instanceof RegExp) return object.toString();
  if (seen.has(object)) return '[circular]';
  if (depth >= JSON_SAFE_LIMITS.depth) return TRUNCATED;
  seen.add(object);
  try {
    if (object instanceof Map) {
      return convert(Object.fromEntries([...object.entries()].map(([key, item]) => [String(key), item])), depth, seen);
    }
    if (object instanceof Set) return convert([...object], depth, seen);
    if (Array.isArray(object)) {
      const items = object.slice(0, JSON_SAFE_LIMITS.arrayLength).map((item) => convert(item, depth + 1, seen));
      if (object.length > JSON_SAFE_LIMITS.arrayLength) items.push(`${TRUNCATED} ${object.length - JSON_SAFE_LIMITS.arrayLength} more`);
      return items;
    }
    const result: Record<string, JsonValue> = {};
    const keys = Object.keys(object);
    for (const key of keys.slice(0, JSON_SAFE_LIMITS.keys)) {
      if (SECRET_KEY.test(key)) {
        result[key] = REDACTED;
        continue;
      }
      result[key] = convert((object as Record<string, unknown>)[key], depth + 1, seen);
    }
    if (keys.length > JSON_SAFE_LIMITS.keys) result[TRUNCATED] = `${keys.length - JSON_SAFE_LIMITS.keys} more keys`;
    return result;
  } finally {
    seen.delete(object);
  }
}

/** A JSON-safe copy of any value, within JSON_SAFE_LIMITS. */
export function toJsonSafe(value: unknown): JsonValue {
  return convert(value, 0, new WeakSet());
}
