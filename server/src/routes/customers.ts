import type { FastifyInstance } from 'fastify';
import { CUSTOMER_MEMBERS_MAX, memberSubOf } from '../../../src/config/customers.ts';
import type { Checkout } from '../../../src/services/schemas/payments.ts';
import {
  addMemberRequestSchema,
  createCustomerRequestSchema,
  customerPurchaseRequestSchema,
  transferRequestSchema,
  type Customer,
  type CustomerList,
  type CustomerTransfer,
  type TransferResult,
} from '../../../src/services/schemas/customers.ts';
import { customerBalance, isNegativeCustomerBalance } from '../db/customer-ledger.ts';
import {
  completeKeyWithin,
  countCustomerMembers,
  customerMembers,
  deleteCustomerMember,
  findAccountByEmailOrHandle,
  findCustomer,
  findCustomerMember,
  insertCustomer,
  insertCustomerMember,
  isCustomerMember,
  latestTransfers,
  listCustomersOf,
  lockCustomer,
  recordTransfer,
  type CustomerRow,
  type CustomerTransferRow,
} from '../db/customers.ts';
import type { Queryable } from '../db/database.ts';
import { isGuestUsername } from '../db/users.ts';
import { HttpError, ok, parseInput } from './http.ts';
import { idempotencyKeyOf, runIdempotent } from './idempotent.ts';
import { DETAILS } from './messages.ts';
import { requestDigest } from './multipart-body.ts';
import { requestOrigin, viaCardProvider } from './payments.ts';
import type { RouteDeps } from './route-deps.ts';

/** How many of the latest transfers the owner's view of an organisation lists. */
export const CUSTOMER_TRANSFERS_SHOWN = 20;

const TRANSFER_ROUTE = 'customers/credits/transfer';

const transferAnswer = (row: CustomerTransferRow): CustomerTransfer => ({
  id: row.id,
  member_id: row.member_sub,
  member_handle: row.member_handle,
  credits: row.credits,
  created_at: row.created_at.toISOString(),
});

/**
 * The organisation as `viewerSub` may see it: the owner sees the balance, the members' e-mails,
 * what each received and the latest transfers; a member sees who belongs, by handle only.
 */
async function customerView(db: Queryable, customer: CustomerRow, viewerSub: string): Promise<Customer> {
  const isOwner = customer.owner_sub === viewerSub;
  // One query after another: `db` may be an open transaction, which runs one statement at a time.
  const members = await customerMembers(db, customer.id);
  const balance = isOwner ? await customerBalance(db, customer.id) : null;
  const transfers = isOwner ? await latestTransfers(db, customer.id, CUSTOMER_TRANSFERS_SHOWN) : [];
  return {
    id: customer.id,
    name: customer.name,
    role: isOwner ? 'owner' : 'member',
    owner: { id: customer.owner_sub, preferred_username: customer.owner_handle },
    balance,
    members: members.map((member) => ({
      key: member.key,
      id: member.member_sub,
      preferred_username: member.preferred_username,
      email: isOwner ? member.email : null,
      added_at: member.added_at.toISOString(),
      credits_received: isOwner ? member.credits_received : 0,
    })),
    transfers: transfers.map(transferAnswer),
    created_at: customer.created_at.toISOString(),
  };
}

/**
 * The organisation when the caller owns it. A member learns it exists but may not change it
 * (403); to anyone else it does not exist (404).
 */
async function requireOwner(db: Queryable, customer: CustomerRow | null, userSub: string): Promise<CustomerRow> {
  if (!customer) throw new HttpError(404, DETAILS.customerNotFound);
  if (customer.owner_sub === userSub) return customer;
  if (await isCustomerMember(db, customer.id, userSub)) throw new HttpError(403, DETAILS.customerOwnerOnly);
  throw new HttpError(404, DETAILS.customerNotFound);
}

/** SPEC §7 customers calls (organisations), plus POST customers to create one. */
export async function customerRoutes(app: FastifyInstance, deps: RouteDeps): Promise<void> {
  const { db, auth, payments } = deps;

  app.post('/customers', async (request, reply): Promise<{ data: Customer }> => {
    const user = await auth.requireUser(request);
    const { name } = parseInput(createCustomerRequestSchema, request.body);
    if (isGuestUsername(user.username)) throw new HttpError(400, DETAILS.customerGuestCannotOwn);
    const id = await insertCustomer(db, user.sub, name);
    const customer = await findCustomer(db, id);
    if (!customer) throw new Error(`organisation ${id} vanished right after it was created`);
    reply.code(201);
    return ok(await customerView(db, customer, user.sub));
  });

  app.get('/customers', async (request): Promise<{ data: CustomerList }> => {
    const user = await auth.requireUser(request);
    return ok({ items: await listCustomersOf(db, user.sub) });
  });

  app.get<{ Params: { id: string } }>('/customers/:id', async (request): Promise<{ data: Customer }> => {
    const user = await auth.requireUser(request);
    const customer = await findCustomer(db, request.params.id);
    const visible =
      customer !== null && (customer.owner_sub === user.sub || (await isCustomerMember(db, customer.id, user.sub)));
    if (!customer || !visible) throw new HttpError(404, DETAILS.customerNotFound);
    return ok(await customerView(db, customer, user.sub));
  });

  app.post('/customers/members', async (request): Promise<{ data: Customer }> => {
    const user = await auth.requireUser(request);
    const body = parseInput(addMemberRequestSchema, request.body);
    await requireOwner(db, await findCustomer(db, body.customer_id), user.sub);
    const account = await findAccountByEmailOrHandle(db, body.member);
    if (!account) throw new HttpError(404, DETAILS.customerAccountUnknown);
    if (account.sub === user.sub) throw new HttpError(400, DETAILS.customerOwnedAlready);
    if (isGuestUsername(account.username)) throw new HttpError(400, DETAILS.customerGuestCannotJoin);
    const answer = await db.transaction(async (tx) => {
      const customer = await requireOwner(tx, await lockCustomer(tx, body.customer_id), user.sub);
      if (await isCustomerMember(tx, customer.id, account.sub)) throw new HttpError(409, DETAILS.customerMemberAlready);
      if ((await countCustomerMembers(tx, customer.id)) >= CUSTOMER_MEMBERS_MAX) {
        throw new HttpError(409, DETAILS.customerMembersFull(CUSTOMER_MEMBERS_MAX));
      }
      await insertCustomerMember(tx, customer.id, account.sub);
      return customerView(tx, customer, user.sub);
    });
    return ok(answer);
  });

  app.delete<{ Params: { customerId: string; memberId: string } }>(
    '/customers/:customerId/members/:memberId',
    async (request): Promise<{ data: Customer }> => {
      const user = await auth.requireUser(request);
      const { customerId, memberId } = request.params;
      const answer = await db.transaction(async (tx) => {
        const customer = await requireOwner(tx, await lockCustomer(tx, customerId), user.sub);
        const removed = await deleteCustomerMember(tx, customer.id, memberSubOf(memberId));
        if (!removed) throw new HttpError(404, DETAILS.customerMemberNotFound);
        return customerView(tx, customer, user.sub);
      });
      return ok(answer);
    },
  );

  /**
   * Moves credits from the organisation to a member, once per Idempotency-Key: the organisation's
   * row is locked for the whole transaction, so concurrent transfers see each other's debits and
   * never overdraw it (the ledger's guard would refuse that row anyway).
   */
  app.post('/customers/credits/transfer', async (request, reply) => {
    const user = await auth.requireUser(request);
    if (idempotencyKeyOf(request) === null) throw new HttpError(400, DETAILS.transferKeyRequired);
    const body = parseInput(transferRequestSchema, request.body);
    const memberSub = memberSubOf(body.member_id);
    const hash = requestDigest(TRANSFER_ROUTE, {}, { ...body, member_id: memberSub });
    return runIdempotent(
      db,
      request,
      reply,
      user.sub,
      hash,
      async (key) => {
        try {
          const payload = await db.transaction(async (tx): Promise<{ data: TransferResult }> => {
            const customer = await requireOwner(tx, await lockCustomer(tx, body.customer_id), user.sub);
            const member = await findCustomerMember(tx, customer.id, memberSub);
            if (!member) throw new HttpError(404, DETAILS.customerMemberNotFound);
            const balance = await customerBalance(tx, customer.id);
            if (balance < body.credits) throw new HttpError(402, DETAILS.customerCreditsShort(balance, body.credits));
            const transfer = await recordTransfer(tx, {
              customer,
              memberSub,
              memberHandle: member.preferred_username,
              credits: body.credits,
            });
            const answer = ok({ transfer: transferAnswer(transfer), customer: await customerView(tx, customer, user.sub) });
            if (key !== null) await completeKeyWithin(tx, user.sub, key, 200, answer);
            return answer;
          });
          return { statusCode: 200, payload };
        } catch (error) {
          if (!isNegativeCustomerBalance(error)) throw error;
          const balance = await customerBalance(db, body.customer_id);
          throw new HttpError(402, DETAILS.customerCreditsShort(balance, body.credits));
        }
      },
      // A transfer's answer is kept whole; there is no media to rebuild.
      async () => null,
    );
  });

  /** The owner buys a credit pack for the organisation: a checkout whose payment credits its ledger. */
  app.post('/customer/user/purchase', async (request): Promise<{ data: Checkout }> => {
    const user = await auth.requireUser(request);
    const body = parseInput(customerPurchaseRequestSchema, request.body);
    const customer = await requireOwner(db, await findCustomer(db, body.customer_id), user.sub);
    const created = await viaCardProvider(request, () =>
      payments.createCheckout({
        userSub: user.sub,
        username: user.row.username,
        email: user.row.email,
        packId: body.pack_id,
        customerId: customer.id,
        origin: requestOrigin(request),
      }),
    );
    if (!created) throw new HttpError(404, DETAILS.creditPackNotFound);
    return ok({ session_id: created.session.id, checkout_url: created.checkoutUrl });
  });
}
