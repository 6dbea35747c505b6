import { z } from '@/services/schemas/zod-mini';
import { STORAGE_KEYS } from '@/config/limits';
import type { StorageKey } from '@/config/limits';
import { appConfigurationSchema } from '@/services/schemas/app-config';
import { storedJobsSchema } from '@/services/schemas/stored-jobs';

/** What each local-storage key holds; a stored value that does not match reads as absent. */
const storedValueSchemas = {
  [STORAGE_KEYS.appConfiguration]: appConfigurationSchema,
  /** Epoch milliseconds after which the stored app configuration is stale. */
  [STORAGE_KEYS.appConfigExpiry]: z.number(),
  [STORAGE_KEYS.couponCode]: z.string().check(z.minLength(1)),
  [STORAGE_KEYS.redirectUri]: z.string().check(z.minLength(1)),
  [STORAGE_KEYS.redirectState]: z.string(),
  [STORAGE_KEYS.jobs]: storedJobsSchema,
  /** Checked log by log where it is read (src/lib/inspection/saved-job-logs.ts): one bad log drops only itself. */
  [STORAGE_KEYS.jobLogs]: z.record(z.string(), z.unknown()),
  [STORAGE_KEYS.overlaysSeen]: z.object({
    /** Whose sign-in: another person's record counts as nothing seen. */
    userId: z.string(),
    guestWelcome: z._default(z.boolean(), false),
    /** The person closed Verify Email ("Later"): it stays closed until the account menu opens it. */
    verifyEmailLater: z._default(z.boolean(), false),
  }),
} satisfies Record<StorageKey, z.ZodMiniType>;

type StoredValueSchemas = typeof storedValueSchemas;
export type StoredValue<K extends StorageKey> = z.output<StoredValueSchemas[K]>;
/** What may be written: defaults of the schema may be left out, as in its input type. */
export type StorableValue<K extends StorageKey> = z.input<StoredValueSchemas[K]>;

// Storage can be missing or throw (privacy modes, quota, disabled cookies); the app then runs
// without its cache instead of failing.
const storage = (): Storage | null => {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
};

const parseJson = (raw: string): { ok: true; value: unknown } | { ok: false } => {
  try {
    return { ok: true, value: JSON.parse(raw) };
  } catch {
    return { ok: false };
  }
};

/**
 * The stored value, or null when absent, unreadable or not of the expected shape. Values are
 * stored as JSON; a plain string written by an older build (not JSON-encoded) is still read.
 */
export const readStored = <K extends StorageKey>(key: K): StoredValue<K> | null => {
  let raw: string | null;
  try {
    raw = storage()?.getItem(key) ?? null;
  } catch {
    return null;
  }
  if (raw === null) return null;
  // Widened for the loop; the key picked the schema, so its output is StoredValue<K>.
  const schema: z.ZodMiniType = storedValueSchemas[key];
  const json = parseJson(raw);
  const candidates: unknown[] = json.ok ? [json.value, raw] : [raw];
  for (const candidate of candidates) {
    const result = schema.safeParse(candidate);
    if (result.success) return result.data as StoredValue<K>;
  }
  return null;
};

/** Stores the value as JSON; false when the browser refused (no storage, quota exceeded). */
export const writeStored = <K extends StorageKey>(key: K, value: StorableValue<K>): boolean => {
  try {
    const target = storage();
    if (!target) return false;
    target.setItem(key, JSON.stringify(value));
    return true;
  } catch {
    return false;
  }
};

export const removeStored = (key: StorageKey): void => {
  try {
    storage()?.removeItem(key);
  } catch {
    // Nothing stored that could be removed.
  }
};

/**
 * Calls `onChange` whenever another tab of this site changes `key` (the browser's `storage`
 * event; a tab never receives its own writes). `clear()` in another tab counts as a change.
 * Returns the unsubscribe function.
 */
export const watchStored = (key: StorageKey, onChange: () => void): (() => void) => {
  if (typeof window === 'undefined') return () => {};
  const listener = (event: StorageEvent) => {
    if (event.key === key || event.key === null) onChange();
  };
  window.addEventListener('storage', listener);
  return () => window.removeEventListener('storage', listener);
};

/**
 * The values local storage holds under keys that name a secret (the sign-in library keeps the
 * person's tokens there): a problem report is searched for them before it leaves the browser.
 */
export const storedSecrets = (): string[] => {
  const target = storage();
  if (!target) return [];
  const secrets: string[] = [];
  try {
    for (let index = 0; index < target.length; index += 1) {
      const key = target.key(index);
      if (key && /token|secret|password|session/i.test(key)) {
        const value = target.getItem(key);
        if (value) secrets.push(value);
      }
    }
  } catch {
    // Storage went away while it was read: what was found is returned.
  }
  return secrets;
};
