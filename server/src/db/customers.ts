import { memberKey } from '../../../src/config/customers.ts';
import { appendLedgerEntry } from './credit-ledger.ts';
import { creditCustomerAccount, customerBalance } from './customer-ledger.ts';
import type { Queryable } from './database.ts';
import { newPublicId } from './media.ts';

/**
 * Organisations (SPEC §3 Customer): the customers table, their members (SPEC §6 business members,
 * keyed b2b_members_{sub}) and the transfers of the organisation's credits to them.
 */

export interface CustomerRow {
  id: string;
  owner_sub: string;
  owner_handle: string | null;
  name: string;
  created_at: Date;
}

export interface CustomerMemberRow {
  member_sub: string;
  key: string;
  preferred_username: string | null;
  email: string | null;
  added_at: Date;
  credits_received: number;
}

export interface CustomerTransferRow {
  id: string;
  member_sub: string;
  member_handle: string | null;
  credits: number;
  created_at: Date;
}

export interface CustomerSummaryRow {
  id: string;
  name: string;
  role: 'owner' | 'member';
  member_count: number;
}

/** A person who can be added as a member. */
export interface AccountRow {
  sub: string;
  username: string;
  preferred_username: string | null;
}

const customerSelect = `SELECT c.id, c.owner_sub, u.preferred_username AS owner_handle, c.name, c.created_at
  FROM customers c JOIN users u ON u.sub = c.owner_sub`;

export async function insertCustomer(db: Queryable, ownerSub: string, name: string): Promise<string> {
  const id = newPublicId();
  await db.query('INSERT INTO customers (id, owner_sub, name) VALUES ($1, $2, $3)', [id, ownerSub, name]);
  return id;
}

/** The organisation, unless it does not exist or was deleted with its owner's account. */
export async function findCustomer(db: Queryable, id: string): Promise<CustomerRow | null> {
  const { rows } = await db.query<CustomerRow>(`${customerSelect} WHERE c.id = $1 AND c.deleted_at IS NULL`, [id]);
  return rows[0] ?? null;
}

/**
 * Locks the organisation's row for the rest of the transaction: everything that changes its
 * members or spends its credits takes this lock first, so those changes never interleave.
 */
export async function lockCustomer(tx: Queryable, id: string): Promise<CustomerRow | null> {
  const { rows } = await tx.query<{ id: string }>('SELECT id FROM customers WHERE id = $1 AND deleted_at IS NULL FOR UPDATE', [id]);
  return rows[0] ? findCustomer(tx, id) : null;
}

export async function isCustomerMember(db: Queryable, customerId: string, userSub: string): Promise<boolean> {
  const { rows } = await db.query('SELECT 1 FROM customer_members WHERE customer_id = $1 AND member_sub = $2', [customerId, userSub]);
  return rows.length > 0;
}

/** The organisations the person owns (first) and belongs to, oldest first within each. */
export async function listCustomersOf(db: Queryable, userSub: string): Promise<CustomerSummaryRow[]> {
  const { rows } = await db.query<CustomerSummaryRow>(
    `SELECT c.id, c.name, CASE WHEN c.owner_sub = $1 THEN 'owner' ELSE 'member' END AS role,
       (SELECT COUNT(*)::integer FROM customer_members m WHERE m.customer_id = c.id) AS member_count
     FROM customers c
     WHERE c.deleted_at IS NULL
       AND (c.owner_sub = $1 OR EXISTS (SELECT 1 FROM customer_members m WHERE m.customer_id = c.id AND m.member_sub = $1))
     ORDER BY (c.owner_sub = $1) DESC, c.created_at, c.id`,
    [userSub],
  );
  return rows;
}

/** The members, oldest first, with what each has received from the organisation so far. */
export async function customerMembers(db: Queryable, customerId: string): Promise<CustomerMemberRow[]> {
  const { rows } = await db.query<CustomerMemberRow>(
    `SELECT m.member_sub, m.key, u.preferred_username, u.email, m.added_at,
       (SELECT COALESCE(SUM(t.credits), 0)::integer FROM customer_transfers t
         WHERE t.customer_id = m.customer_id AND t.member_sub = m.member_sub) AS credits_received
     FROM customer_members m JOIN users u ON u.sub = m.member_sub
     WHERE m.customer_id = $1
     ORDER BY m.added_at, m.member_sub`,
    [customerId],
  );
  return rows;
}

export async function countCustomerMembers(db: Queryable, customerId: string): Promise<number> {
  const { rows } = await db.query<{ count: number }>(
    'SELECT COUNT(*)::integer AS count FROM customer_members WHERE customer_id = $1',
    [customerId],
  );
  return rows[0]?.count ?? 0;
}

export async function latestTransfers(db: Queryable, customerId: string, limit: number): Promise<CustomerTransferRow[]> {
  const { rows } = await db.query<CustomerTransferRow>(
    `SELECT t.id, t.member_sub, u.preferred_username AS member_handle, t.credits, t.created_at
     FROM customer_transfers t JOIN users u ON u.sub = t.member_sub
     WHERE t.customer_id = $1
     ORDER BY t.created_at DESC, t.id DESC
     LIMIT $2`,
    [customerId, limit],
  );
  return rows;
}

/**
 * The live account an owner named: an e-mail address, or a handle with or without its leading @,
 * either matched regardless of case. Handles never contain "@", so the two cannot be confused.
 */
export async function findAccountByEmailOrHandle(db: Queryable, value: string): Promise<AccountRow | null> {
  const bare = value.trim().replace(/^@/, '');
  const byEmail = bare.includes('@');
  const { rows } = await db.query<AccountRow>(
    `SELECT sub, username, preferred_username FROM users
     WHERE deleted_at IS NULL AND ${byEmail ? 'lower(email) = lower($1)' : 'lower(preferred_username) = lower($1)'}
     ORDER BY created_at DESC LIMIT 1`,
    [bare],
  );
  return rows[0] ?? null;
}

/** Adds the member; false when they already are one. */
export async function insertCustomerMember(tx: Queryable, customerId: string, memberSub: string): Promise<boolean> {
  const { rowCount } = await tx.query(
    `INSERT INTO customer_members (customer_id, member_sub, key) VALUES ($1, $2, $3)
     ON CONFLICT (customer_id, member_sub) DO NOTHING`,
    [customerId, memberSub, memberKey(memberSub)],
  );
  return rowCount > 0;
}

/** Removes the member; false when they were not one. Their transfers stay as the record. */
export async function deleteCustomerMember(tx: Queryable, customerId: string, memberSub: string): Promise<boolean> {
  const { rowCount } = await tx.query('DELETE FROM customer_members WHERE customer_id = $1 AND member_sub = $2', [
    customerId,
    memberSub,
  ]);
  return rowCount > 0;
}

export interface NewTransfer {
  customer: CustomerRow;
  memberSub: string;
  memberHandle: string | null;
  credits: number;
}

/**
 * Moves credits from the organisation to a member: the transfer row, the organisation's ledger
 * row (−credits) and the member's ledger row (+credits, kind transfer). Call it inside the
 * transaction that locked the organisation (lockCustomer) and checked its balance; the ledger's
 * guard still refuses a row that would overdraw it.
 */
export async function recordTransfer(tx: Queryable, transfer: NewTransfer): Promise<CustomerTransferRow> {
  const id = newPublicId();
  const { rows } = await tx.query<{ created_at: Date }>(
    'INSERT INTO customer_transfers (id, customer_id, member_sub, credits) VALUES ($1, $2, $3, $4) RETURNING created_at',
    [id, transfer.customer.id, transfer.memberSub, transfer.credits],
  );
  const createdAt = rows[0]?.created_at;
  if (!createdAt) throw new Error('INSERT INTO customer_transfers returned no row');
  await creditCustomerAccount(tx, {
    customerId: transfer.customer.id,
    amount: -transfer.credits,
    kind: 'transfer',
    reason: `To ${transfer.memberHandle ? `@${transfer.memberHandle}` : memberKey(transfer.memberSub)}`,
    memberSub: transfer.memberSub,
    transferId: id,
  });
  await appendLedgerEntry(tx, {
    userSub: transfer.memberSub,
    amount: transfer.credits,
    kind: 'transfer',
    reason: `From ${transfer.customer.name}`,
  });
  return { id, member_sub: transfer.memberSub, member_handle: transfer.memberHandle, credits: transfer.credits, created_at: createdAt };
}

/** The member's handle when the person is a (live) member of the organisation. */
export async function findCustomerMember(db: Queryable, customerId: string, memberSub: string): Promise<{ preferred_username: string | null } | null> {
  const { rows } = await db.query<{ preferred_username: string | null }>(
    `SELECT u.preferred_username FROM customer_members m JOIN users u ON u.sub = m.member_sub
     WHERE m.customer_id = $1 AND m.member_sub = $2 AND u.deleted_at IS NULL
     FOR UPDATE OF u`,
    [customerId, memberSub],
  );
  return rows[0] ?? null;
}

export interface OwnedWithCredits {
  name: string;
  balance: number;
}

/**
 * Clears the person out of organisations before their account is deleted: their memberships go,
 * and the organisations they own are marked deleted (their members with them). An organisation
 * that still holds credits is not thrown away: it is returned instead and nothing is changed.
 */
export async function releaseCustomersOfUser(tx: Queryable, userSub: string): Promise<OwnedWithCredits | null> {
  const { rows: owned } = await tx.query<{ id: string; name: string }>(
    'SELECT id, name FROM customers WHERE owner_sub = $1 AND deleted_at IS NULL ORDER BY created_at FOR UPDATE',
    [userSub],
  );
  for (const customer of owned) {
    const balance = await customerBalance(tx, customer.id);
    if (balance > 0) return { name: customer.name, balance };
  }
  const ids = owned.map((customer) => customer.id);
  await tx.query('DELETE FROM customer_members WHERE member_sub = $1 OR customer_id = ANY($2::text[])', [userSub, ids]);
  await tx.query('UPDATE customers SET deleted_at = clock_timestamp() WHERE id = ANY($1::text[])', [ids]);
  return null;
}

/**
 * Marks a transfer's Idempotency-Key done with its answer inside the transaction that made the
 * transfer: a retry after a crash between that commit and the key's completion replays the answer
 * instead of moving the credits again.
 */
export async function completeKeyWithin(tx: Queryable, userSub: string, key: string, status: number, body: unknown): Promise<void> {
  await tx.query(
    `UPDATE idempotency_keys SET state = 'done', response_status = $3, response_body = $4::jsonb
     WHERE user_sub = $1 AND key = $2 AND state = 'pending'`,
    [userSub, key, status, JSON.stringify(body)],
  );
}
