import { HANDLE_PATTERN, HANDLE_RULE, RESERVED_HANDLES } from '../config.ts';
import type { Database } from '../db/database.ts';
import { claimHandle, clearHandle, findUserByHandle, releaseHandle } from '../db/users.ts';
import type { HandleRegistry } from './types.ts';

/**
 * Handles are unique in the users table (a unique index on lower(preferred_username)); the pool
 * only mirrors them. `handleOwner` asks the pool too, so a handle a pool user holds without a row
 * here (an account that never called the API since its data folder was wiped) is not handed out.
 */
export function createHandleRegistry(db: Database, handleOwner: (handle: string) => Promise<string | null>): HandleRegistry {
  return {
    async claim(caller, handle) {
      if (!HANDLE_PATTERN.test(handle)) return { status: 'invalid', message: HANDLE_RULE };
      if (RESERVED_HANDLES.has(handle.toLowerCase())) return { status: 'taken' };
      const poolOwner = await handleOwner(handle);
      if (poolOwner !== null && poolOwner !== caller.sub) return { status: 'taken' };
      const result = await claimHandle(
        db,
        { sub: caller.sub, username: caller.username, email: caller.email, preferredUsername: caller.preferredUsername },
        handle,
      );
      if (result.status !== 'claimed') return result;
      return { status: 'claimed', release: () => releaseHandle(db, caller.sub, handle, result.previous) };
    },
    async check(handle) {
      if (!HANDLE_PATTERN.test(handle)) return { invalid: HANDLE_RULE };
      if (RESERVED_HANDLES.has(handle.toLowerCase())) return 'taken';
      const [row, poolOwner] = await Promise.all([findUserByHandle(db, handle), handleOwner(handle)]);
      return row || poolOwner !== null ? 'taken' : 'free';
    },
    cleared: (caller) => clearHandle(db, caller.sub),
  };
}
