import { GUEST_USERNAME } from '../../../src/config/limits.ts';
import { HANDLE_PATTERN, RESERVED_HANDLES, STARTING_CREDIT_GRANT, STARTING_CREDIT_REASON } from '../config.ts';
import { appendLedgerEntry } from './credit-ledger.ts';
import { isUniqueViolation } from './database.ts';
import type { Database, Queryable } from './database.ts';

export interface UserRow {
  sub: string;
  username: string;
  preferred_username: string | null;
  email: string | null;
  deleted_at: Date | null;
  /** Generated videos carry the product logo (SPEC §6: the shared guest account). */
  logo_variant: boolean;
}

export interface NewUser {
  sub: string;
  username: string;
  email: string | null;
  /** The handle the identity provider holds; the row follows it (SPEC §3 preferred_username). */
  preferredUsername: string | null;
}

const userColumns = 'sub, username, preferred_username, email, deleted_at, logo_variant';

/**
 * Returns the user's row, creating it the first time a verified token shows up. The creating
 * transaction also writes the one-time starting grant, so a user never exists without it and
 * two concurrent first calls grant once (only the INSERT that wins the conflict grants).
 */
export async function ensureUser(db: Database, user: NewUser): Promise<UserRow> {
  const existing = await findUserBySub(db, user.sub);
  if (existing) return syncProfile(db, existing, user);
  await db.transaction(async (tx) => {
    const inserted = await tx.query(
      `INSERT INTO users (sub, username, email, logo_variant) VALUES ($1, $2, $3, $4)
       ON CONFLICT (sub) DO NOTHING RETURNING sub`,
      [user.sub, user.username, user.email, isGuestUsername(user.username)],
    );
    if (inserted.rowCount === 0) return;
    await appendLedgerEntry(tx, {
      userSub: user.sub,
      amount: STARTING_CREDIT_GRANT,
      kind: 'grant',
      reason: STARTING_CREDIT_REASON,
    });
  });
  const created = await findUserBySub(db, user.sub);
  if (!created) throw new Error(`user ${user.sub} vanished right after it was created`);
  return syncProfile(db, created, user);
}

/**
 * The identity provider owns the e-mail and the handle; the row mirrors them so profiles can be
 * found by handle (GET users/{id}) and taken handles are known. A handle another row already
 * holds stays with that row: the first to take it keeps it.
 */
async function syncProfile(db: Database, row: UserRow, user: NewUser): Promise<UserRow> {
  if (row.deleted_at) return row;
  // The server never trusts a handle from the identity provider (issue 17: a production pool has
  // no front to check it): one that breaks the handle rule or is reserved is not taken over, and
  // the row keeps what it had (a stored handle that breaks the rule is dropped).
  const kept = isAcceptableHandle(row.preferred_username) ? row.preferred_username : null;
  const handle = user.preferredUsername === null || isAcceptableHandle(user.preferredUsername) ? user.preferredUsername : kept;
  if (row.preferred_username === handle && row.email === user.email) return row;
  try {
    const { rows } = await db.query<UserRow>(
      `UPDATE users SET preferred_username = $2, email = $3 WHERE sub = $1 RETURNING ${userColumns}`,
      [row.sub, handle, user.email],
    );
    return rows[0] ?? row;
  } catch (error) {
    // The unique index is the claim: another row holds this handle, so this row keeps its own.
    if (!isUniqueViolation(error)) throw error;
    const { rows } = await db.query<UserRow>(`UPDATE users SET preferred_username = $3, email = $2 WHERE sub = $1 RETURNING ${userColumns}`, [
      row.sub,
      user.email,
      kept,
    ]);
    return rows[0] ?? row;
  }
}

/** The handle rule (SPEC §2.1) and the reserved words, as the server applies them to any handle it stores. */
export function isAcceptableHandle(handle: string | null): handle is string {
  return handle !== null && HANDLE_PATTERN.test(handle) && !RESERVED_HANDLES.has(handle.toLowerCase());
}

export async function findUserBySub(db: Queryable, sub: string): Promise<UserRow | null> {
  const { rows } = await db.query<UserRow>(`SELECT ${userColumns} FROM users WHERE sub = $1`, [sub]);
  return rows[0] ?? null;
}

export async function findUserByHandle(db: Queryable, handle: string): Promise<UserRow | null> {
  const { rows } = await db.query<UserRow>(
    `SELECT ${userColumns} FROM users WHERE lower(preferred_username) = lower($1)`,
    [handle],
  );
  return rows[0] ?? null;
}

/**
 * Marks the account deleted and frees its handle; its ledger rows stay as the record. What only
 * served the person goes with it: their push subscriptions (browser endpoints and keys), their
 * alerts' opt-in and their Library folders (the row stays, so no ON DELETE CASCADE removes them).
 */
export async function markUserDeleted(db: Queryable, sub: string): Promise<void> {
  await db.query('UPDATE users SET deleted_at = now(), preferred_username = NULL, push_alerts = false WHERE sub = $1', [sub]);
  await db.query('DELETE FROM push_subscriptions WHERE user_sub = $1', [sub]);
  await db.query('DELETE FROM library_folders WHERE user_sub = $1', [sub]);
}

export const isGuestUsername = (username: string): boolean => username.toLowerCase() === GUEST_USERNAME;

/**
 * Whether the user's generated media carry the product logo (SPEC §6): true for the shared guest
 * account, false for everyone else and for a user the table does not know. The job engine asks
 * this when it renders a result.
 */
export async function usesLogoVariant(db: Queryable, sub: string): Promise<boolean> {
  const { rows } = await db.query<{ logo_variant: boolean }>('SELECT logo_variant FROM users WHERE sub = $1', [sub]);
  return rows[0]?.logo_variant ?? false;
}

export type HandleClaim =
  | { status: 'claimed'; previous: string | null }
  | { status: 'taken' }
  | { status: 'deleted' };

/**
 * Takes `handle` for the user before the identity provider is told: the unique index on
 * lower(preferred_username) decides, so of two concurrent claims of one handle exactly one wins.
 * The row is created first if this is the user's first call. `previous` is what to put back
 * (releaseHandle) if the identity provider then refuses the change.
 */
export async function claimHandle(db: Database, user: NewUser, handle: string): Promise<HandleClaim> {
  const row = await ensureUser(db, user);
  if (row.deleted_at) return { status: 'deleted' };
  try {
    return await db.transaction(async (tx): Promise<HandleClaim> => {
      const { rows } = await tx.query<{ preferred_username: string | null; deleted_at: Date | null }>(
        'SELECT preferred_username, deleted_at FROM users WHERE sub = $1 FOR UPDATE',
        [user.sub],
      );
      const current = rows[0];
      if (!current || current.deleted_at) return { status: 'deleted' };
      await tx.query('UPDATE users SET preferred_username = $2 WHERE sub = $1', [user.sub, handle]);
      return { status: 'claimed', previous: current.preferred_username };
    });
  } catch (error) {
    if (isUniqueViolation(error)) return { status: 'taken' };
    throw error;
  }
}

/**
 * Gives back a claimed handle the identity provider refused: the row returns to `previous` if it
 * still holds `handle`, or to no handle if someone has taken `previous` meanwhile.
 */
export async function releaseHandle(db: Queryable, sub: string, handle: string, previous: string | null): Promise<void> {
  try {
    await db.query('UPDATE users SET preferred_username = $3 WHERE sub = $1 AND preferred_username = $2', [
      sub,
      handle,
      previous,
    ]);
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    await db.query('UPDATE users SET preferred_username = NULL WHERE sub = $1 AND preferred_username = $2', [sub, handle]);
  }
}

/** The user removed their handle from the identity provider: the row lets it go too. */
export async function clearHandle(db: Queryable, sub: string): Promise<void> {
  await db.query('UPDATE users SET preferred_username = NULL WHERE sub = $1', [sub]);
}
