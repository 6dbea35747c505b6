import type { FastifyInstance } from 'fastify';
import {
  contactUsRequestSchema,
  usernameAvailabilityRequestSchema,
  type ContactUsResponse,
  type DeleteAccountResponse,
  type PublicUser,
  type UsernameAvailability,
} from '../../../src/services/schemas/users.ts';
import { GUEST_USERNAME } from '../../../src/config/limits.ts';
import { HANDLE_PATTERN, HANDLE_RULE, RESERVED_HANDLES } from '../config.ts';
import { insertContactMessage } from '../db/contact-messages.ts';
import { deleteBatchesOfUsers } from '../db/batch.ts';
import { releaseCustomersOfUser } from '../db/customers.ts';
import { deleteMediaOfUsers } from '../db/media.ts';
import { forgetCard } from '../db/payments.ts';
import { deleteStoriesOfUsers } from '../db/stories.ts';
import { findUserByHandle, findUserBySub, markUserDeleted, type UserRow } from '../db/users.ts';
import type { JobEngine } from '../jobs/engine.ts';
import { HttpError, ok, parseInput } from './http.ts';
import { DETAILS } from './messages.ts';
import type { RouteDeps } from './route-deps.ts';

/**
 * How GET users/{id} reads `id` (SPEC §7 shows `?type=` without its values): `id` (the sub),
 * `username` / `preferred_username` / `handle` (the public handle); absent or anything else
 * tries the sub first, then the handle.
 */
export async function findPublicUser(deps: RouteDeps, id: string, type: string | undefined): Promise<UserRow | null> {
  const handle = id.replace(/^@/, '');
  switch (type) {
    case 'id':
    case 'sub':
      return findUserBySub(deps.db, id);
    case 'username':
    case 'preferred_username':
    case 'handle':
      return findUserByHandle(deps.db, handle);
    default:
      return (await findUserBySub(deps.db, id)) ?? (await findUserByHandle(deps.db, handle));
  }
}

export async function userRoutes(app: FastifyInstance, deps: RouteDeps & { engine?: JobEngine }): Promise<void> {
  const { db, auth, identity, engine } = deps;

  /** Public profile (SPEC §6: no auth). Deleted accounts are gone for everyone. */
  app.get<{ Params: { id: string }; Querystring: { type?: string } }>(
    '/users/:id',
    async (request): Promise<{ data: PublicUser }> => {
      const user = await findPublicUser(deps, request.params.id, request.query.type);
      if (!user || user.deleted_at) throw new HttpError(404, DETAILS.userNotFound);
      return ok({ id: user.sub, preferred_username: user.preferred_username });
    },
  );

  /**
   * Whether a handle can be taken by the caller: well formed (else 400 with the rule), not
   * reserved, and not another account's handle (the caller's own handle counts as available).
   */
  app.post('/users/available-username', async (request): Promise<{ data: UsernameAvailability }> => {
    const user = await auth.requireUser(request);
    const { preferred_username: raw } = parseInput(usernameAvailabilityRequestSchema, request.body);
    const handle = raw.trim();
    if (!HANDLE_PATTERN.test(handle)) throw new HttpError(400, HANDLE_RULE);
    if (RESERVED_HANDLES.has(handle.toLowerCase())) return ok({ preferred_username: handle, available: false });
    // The pool is the source of truth; the table also knows handles of accounts seen before.
    const [row, poolOwner] = await Promise.all([findUserByHandle(db, handle), identity.handleOwner(handle)]);
    const available = [row?.sub, poolOwner].every((owner) => owner === undefined || owner === null || owner === user.sub);
    return ok({ preferred_username: handle, available });
  });

  /**
   * Deletes the caller's account. The row is marked deleted, the media removed (live jobs
   * cancelled and refunded first, as the guest clean-up does) and the pool user removed in one
   * transaction: if the pool refuses, the row and media stay; if the row cannot be written, the
   * pool user is never touched. The files go once that has committed. The shared guest account
   * cannot be deleted (SPEC §6).
   */
  app.delete('/users', async (request): Promise<{ data: DeleteAccountResponse }> => {
    const user = await auth.requireUser(request);
    if (user.username.toLowerCase() === GUEST_USERNAME) throw new HttpError(403, DETAILS.guestAccountProtected);
    const removed = await db.transaction(async (tx) => {
      // Memberships go with the account, and so do owned organisations, unless one still holds credits.
      const funded = await releaseCustomersOfUser(tx, user.sub);
      if (funded) throw new HttpError(409, DETAILS.ownsFundedCustomer(funded.name, funded.balance));
      await markUserDeleted(tx, user.sub);
      // The saved card and auto-refill go too: nothing may charge a deleted account.
      await forgetCard(tx, user.sub);
      const mediaIds = [
        ...(await deleteBatchesOfUsers(tx, [user.sub])),
        ...(await deleteStoriesOfUsers(tx, [user.sub])),
        ...(await deleteMediaOfUsers(tx, [user.sub])),
      ];
      try {
        await identity.deleteUser(user.username);
      } catch (error) {
        request.log.error({ err: error }, 'deleting the pool user failed');
        throw new HttpError(502, DETAILS.accountDeleteFailed);
      }
      return mediaIds;
    });
    for (const id of removed) {
      engine?.announceEnd(id);
      // A folder left behind (a failed removal) is swept later as an orphan.
      await engine?.store.removeMedia(id).catch((error: unknown) => request.log.error({ err: error, mediaId: id }, 'removing media files failed'));
    }
    return ok({ deleted: true as const });
  });

  /** Stored for the team to read; signed-in senders are linked to their account. */
  app.post('/users/contact-us', async (request, reply): Promise<{ data: ContactUsResponse }> => {
    const body = parseInput(contactUsRequestSchema, request.body);
    const user = await auth.optionalUser(request);
    const id = await insertContactMessage(db, { ...body, userSub: user?.sub ?? null });
    reply.code(201);
    return ok({ id });
  });
}
