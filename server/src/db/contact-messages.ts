import type { Queryable } from './database.ts';

export interface NewContactMessage {
  name: string;
  email: string;
  message: string;
  userSub: string | null;
}

/** Stores a contact-us message and returns its id. */
export async function insertContactMessage(db: Queryable, message: NewContactMessage): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO contact_messages (name, email, message, user_sub) VALUES ($1, $2, $3, $4)
     RETURNING id::text AS id`,
    [message.name, message.email, message.message, message.userSub],
  );
  const row = rows[0];
  if (!row) throw new Error('INSERT INTO contact_messages returned no row');
  return row.id;
}
