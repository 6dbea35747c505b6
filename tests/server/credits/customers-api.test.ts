import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { B2B_MEMBER_KEY_PREFIX, memberKey } from '../../../src/config/customers.ts';
import { checkoutSchema } from '../../../src/services/schemas/payments.ts';
import { customerListSchema, customerSchema, transferResultSchema, type Customer } from '../../../src/services/schemas/customers.ts';
import { creditCustomerAccount, customerBalance } from '../../../server/src/db/customer-ledger.ts';
import { confirmCheckout } from '../../../server/src/payments/checkout.ts';
import { callApi, setHandle, signUpUser, startTestServer, type ApiAnswer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

interface Person {
  sub: string;
  email: string;
  accessToken: string;
  handle: string | null;
}

let handleCounter = 0;

/** A signed-up person the server knows (they made a call), with a handle when asked for. */
async function person(prefix: string, withHandle = false): Promise<Person> {
  const user = await signUpUser(server, prefix);
  let handle: string | null = null;
  if (withHandle) {
    handleCounter += 1;
    handle = `${prefix}-${handleCounter}-${Date.now().toString(36)}`;
    await setHandle(server, user.accessToken, handle);
  }
  // The first call creates the user's row (and mirrors the handle into it).
  expect((await callApi(server, 'credits/get', { token: user.accessToken })).status).toBe(200);
  return { sub: user.sub, email: user.email, accessToken: user.accessToken, handle };
}

const asCustomer = (answer: ApiAnswer): Customer => customerSchema.parse(answer.body?.data);

async function createOrganisation(owner: Person, name = 'Acme Films'): Promise<Customer> {
  const answer = await callApi(server, 'customers', { method: 'POST', token: owner.accessToken, json: { name } });
  expect(answer.status).toBe(201);
  return asCustomer(answer);
}

function addMember(owner: Person, customerId: string, member: string) {
  return callApi(server, 'customers/members', { method: 'POST', token: owner.accessToken, json: { customer_id: customerId, member } });
}

function transfer(caller: Person, body: { customer_id: string; member_id: string; credits: number }, key: string | null) {
  return callApi(server, 'customers/credits/transfer', {
    method: 'POST',
    token: caller.accessToken,
    json: body,
    headers: key === null ? {} : { 'Idempotency-Key': key },
  });
}

/** Gives the organisation credits as a confirmed purchase would: one ledger row in a transaction. */
async function fund(customerId: string, credits: number): Promise<void> {
  await server.db.transaction((tx) =>
    creditCustomerAccount(tx, { customerId, amount: credits, kind: 'purchase', reason: `Bought ${credits} credits (test)` }),
  );
}

async function userLedger(sub: string) {
  const { rows } = await server.db.query<{ kind: string; amount: number; reason: string }>(
    'SELECT kind, amount, reason FROM credit_ledger WHERE user_sub = $1 ORDER BY id',
    [sub],
  );
  return rows;
}

async function transferCount(customerId: string): Promise<number> {
  const { rows } = await server.db.query<{ count: number }>(
    'SELECT COUNT(*)::integer AS count FROM customer_transfers WHERE customer_id = $1',
    [customerId],
  );
  return rows[0]?.count ?? 0;
}

/** An organisation with an owner and one member (who has a handle), holding `credits`. */
async function organisationWithMember(credits = 0) {
  const owner = await person('owner', true);
  const member = await person('member', true);
  const organisation = await createOrganisation(owner, `Studio ${owner.handle}`);
  expect((await addMember(owner, organisation.id, member.email)).status).toBe(200);
  if (credits > 0) await fund(organisation.id, credits);
  return { owner, member, organisation };
}

describe('creating and listing organisations', () => {
  it('needs a signed-in caller', async () => {
    expect((await callApi(server, 'customers', { method: 'POST', json: { name: 'X' } })).status).toBe(401);
    expect((await callApi(server, 'customers')).status).toBe(401);
  });

  it('makes the caller the owner of a new, empty organisation and lists it', async () => {
    const owner = await person('founder', true);
    const organisation = await createOrganisation(owner, '  Northwind Pictures ');
    expect(organisation).toMatchObject({
      name: 'Northwind Pictures',
      role: 'owner',
      owner: { id: owner.sub, preferred_username: owner.handle },
      balance: 0,
      members: [],
      transfers: [],
    });
    const list = await callApi(server, 'customers', { token: owner.accessToken });
    expect(customerListSchema.parse(list.body?.data).items).toEqual([
      { id: organisation.id, name: 'Northwind Pictures', role: 'owner', member_count: 0 },
    ]);
    const read = await callApi(server, `customers/${organisation.id}`, { token: owner.accessToken });
    expect(asCustomer(read)).toEqual(organisation);
  });

  it('refuses an empty or overlong name', async () => {
    const owner = await person('namer');
    for (const name of ['   ', 'x'.repeat(81)]) {
      const answer = await callApi(server, 'customers', { method: 'POST', token: owner.accessToken, json: { name } });
      expect(answer.status).toBe(400);
      expect(answer.body?.detail).toMatch(/^Request body is invalid: name: /);
    }
  });

  it('answers 404 for an organisation the caller neither owns nor belongs to', async () => {
    const { organisation } = await organisationWithMember();
    const stranger = await person('stranger');
    const answer = await callApi(server, `customers/${organisation.id}`, { token: stranger.accessToken });
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ detail: 'Failed to find an organisation with this id.' });
    expect((await callApi(server, 'customers/no-such-id', { token: stranger.accessToken })).status).toBe(404);
  });
});

describe('members', () => {
  it('are added by e-mail or by @handle in any case, keyed b2b_members_{sub}', async () => {
    const owner = await person('boss');
    const byEmail = await person('viaemail');
    const byHandle = await person('viahandle', true);
    const organisation = await createOrganisation(owner);

    const first = await addMember(owner, organisation.id, byEmail.email.toUpperCase());
    expect(first.status).toBe(200);
    const second = await addMember(owner, organisation.id, `@${byHandle.handle?.toUpperCase()}`);
    expect(second.status).toBe(200);

    const { members } = asCustomer(second);
    expect(members.map((member) => member.id)).toEqual([byEmail.sub, byHandle.sub]);
    for (const member of members) {
      expect(member.key.startsWith(B2B_MEMBER_KEY_PREFIX)).toBe(true);
      expect(member.key).toBe(memberKey(member.id));
      expect(member.credits_received).toBe(0);
    }
    // The owner sees e-mails.
    expect(members.map((member) => member.email)).toEqual([byEmail.email, byHandle.email]);
    expect(members[1]?.preferred_username).toBe(byHandle.handle);
    const { rows } = await server.db.query<{ key: string }>('SELECT key FROM customer_members WHERE customer_id = $1 ORDER BY added_at', [
      organisation.id,
    ]);
    expect(rows).toEqual([{ key: `b2b_members_${byEmail.sub}` }, { key: `b2b_members_${byHandle.sub}` }]);
  });

  it('refuses unknown people, the owner, someone already a member and the guest account', async () => {
    const { owner, member, organisation } = await organisationWithMember();

    const unknown = await addMember(owner, organisation.id, 'nobody-here@example.test');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ detail: 'No Kinora account has this e-mail or handle.' });
    expect((await addMember(owner, organisation.id, '@no-such-handle-xyz')).status).toBe(404);

    const self = await addMember(owner, organisation.id, `@${owner.handle}`);
    expect(self.status).toBe(400);
    expect(self.body).toEqual({ detail: 'You own this organisation already.' });

    const again = await addMember(owner, organisation.id, `@${member.handle}`);
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ detail: 'This person is already a member.' });

    const guest = await server.emulator.createUser({ username: 'guest', email: 'guest@kinora.local', password: 'kinora-guest' });
    expect((await callApi(server, 'credits/get', { token: guest.accessToken })).status).toBe(200);
    const guestAdded = await addMember(owner, organisation.id, 'guest@kinora.local');
    expect(guestAdded.status).toBe(400);
    expect(guestAdded.body?.detail).toMatch(/guest account/);
    // Nor can the guest account create an organisation.
    const guestOrg = await callApi(server, 'customers', { method: 'POST', token: guest.accessToken, json: { name: 'Guests' } });
    expect(guestOrg.status).toBe(400);
    expect(guestOrg.body?.detail).toMatch(/guest account/);

    const read = asCustomer(await callApi(server, `customers/${organisation.id}`, { token: owner.accessToken }));
    expect(read.members.map((entry) => entry.id)).toEqual([member.sub]);
  });

  it('see their organisation with role member, without the balance, e-mails or transfers', async () => {
    const { owner, member, organisation } = await organisationWithMember(50);
    const other = await person('colleague', true);
    expect((await addMember(owner, organisation.id, other.email)).status).toBe(200);
    expect((await transfer(owner, { customer_id: organisation.id, member_id: member.sub, credits: 5 }, 'seen-by-member')).status).toBe(200);

    const list = await callApi(server, 'customers', { token: member.accessToken });
    expect(customerListSchema.parse(list.body?.data).items).toEqual([
      { id: organisation.id, name: organisation.name, role: 'member', member_count: 2 },
    ]);
    const answer = await callApi(server, `customers/${organisation.id}`, { token: member.accessToken });
    expect(answer.status).toBe(200);
    const seen = asCustomer(answer);
    expect(seen).toMatchObject({ role: 'member', balance: null, transfers: [], owner: { id: owner.sub, preferred_username: owner.handle } });
    expect(seen.members.map((entry) => [entry.preferred_username, entry.email, entry.credits_received])).toEqual([
      [member.handle, null, 0],
      [other.handle, null, 0],
    ]);
    expect(JSON.stringify(answer.body)).not.toContain(member.email);
    expect(JSON.stringify(answer.body)).not.toContain(other.email);
  });

  it('are removed by the owner, by member key or by user id', async () => {
    const { owner, member, organisation } = await organisationWithMember();
    const other = await person('second');
    expect((await addMember(owner, organisation.id, other.email)).status).toBe(200);

    const removed = await callApi(server, `customers/${organisation.id}/members/${memberKey(member.sub)}`, {
      method: 'DELETE',
      token: owner.accessToken,
    });
    expect(removed.status).toBe(200);
    expect(asCustomer(removed).members.map((entry) => entry.id)).toEqual([other.sub]);
    // The removed member no longer sees the organisation.
    expect(customerListSchema.parse((await callApi(server, 'customers', { token: member.accessToken })).body?.data).items).toEqual([]);
    expect((await callApi(server, `customers/${organisation.id}`, { token: member.accessToken })).status).toBe(404);

    const again = await callApi(server, `customers/${organisation.id}/members/${member.sub}`, { method: 'DELETE', token: owner.accessToken });
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ detail: 'This person is not a member of the organisation.' });

    const bySub = await callApi(server, `customers/${organisation.id}/members/${other.sub}`, { method: 'DELETE', token: owner.accessToken });
    expect(bySub.status).toBe(200);
    expect(asCustomer(bySub).members).toEqual([]);
  });
});

describe('only the owner changes an organisation', () => {
  it('answers 403 to a member and 404 to a stranger on add, remove, transfer and purchase', async () => {
    const { member, organisation } = await organisationWithMember(100);
    const stranger = await person('outsider', true);
    const calls = (caller: Person) => [
      addMember(caller, organisation.id, `@${stranger.handle}`),
      callApi(server, `customers/${organisation.id}/members/${member.sub}`, { method: 'DELETE', token: caller.accessToken }),
      transfer(caller, { customer_id: organisation.id, member_id: member.sub, credits: 10 }, `steal-${caller.sub}`),
      callApi(server, 'customer/user/purchase', {
        method: 'POST',
        token: caller.accessToken,
        json: { customer_id: organisation.id, pack_id: 'pack-100' },
      }),
    ];
    for (const answer of await Promise.all(calls(member))) {
      expect(answer.status).toBe(403);
      expect(answer.body).toEqual({ detail: "Only the organisation's owner can do this." });
    }
    for (const answer of await Promise.all(calls(stranger))) {
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ detail: 'Failed to find an organisation with this id.' });
    }
    expect(await customerBalance(server.db, organisation.id)).toBe(100);
    expect(await transferCount(organisation.id)).toBe(0);
    const { rows } = await server.db.query('SELECT 1 FROM checkout_sessions WHERE customer_id = $1', [organisation.id]);
    expect(rows).toEqual([]);
  });
});

describe('transferring credits to a member', () => {
  it('moves the credits in one go: the organisation down, the member up by a transfer row', async () => {
    const { owner, member, organisation } = await organisationWithMember(100);
    const before = await userLedger(member.sub);

    const answer = await transfer(owner, { customer_id: organisation.id, member_id: memberKey(member.sub), credits: 30 }, 'first-transfer');
    expect(answer.status).toBe(200);
    const result = transferResultSchema.parse(answer.body?.data);
    expect(result.transfer).toMatchObject({ member_id: member.sub, member_handle: member.handle, credits: 30 });
    expect(result.customer.balance).toBe(70);
    expect(result.customer.members[0]?.credits_received).toBe(30);
    expect(result.customer.transfers).toEqual([result.transfer]);

    expect(await customerBalance(server.db, organisation.id)).toBe(70);
    expect(await userLedger(member.sub)).toEqual([...before, { kind: 'transfer', amount: 30, reason: `From ${organisation.name}` }]);
    const { rows } = await server.db.query<{ kind: string; amount: number; member_sub: string; transfer_id: string }>(
      'SELECT kind, amount, member_sub, transfer_id FROM customer_ledger WHERE customer_id = $1 ORDER BY id',
      [organisation.id],
    );
    expect(rows).toEqual([
      expect.objectContaining({ kind: 'purchase', amount: 100 }),
      { kind: 'transfer', amount: -30, member_sub: member.sub, transfer_id: result.transfer.id },
    ]);
  });

  it('needs an Idempotency-Key', async () => {
    const { owner, member, organisation } = await organisationWithMember(100);
    const answer = await transfer(owner, { customer_id: organisation.id, member_id: member.sub, credits: 10 }, null);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ detail: 'Send an Idempotency-Key header so a retried transfer is not made twice.' });
    expect(await customerBalance(server.db, organisation.id)).toBe(100);
  });

  it('answers a retry with the same key and body with the first answer, and moves nothing again', async () => {
    const { owner, member, organisation } = await organisationWithMember(100);
    const body = { customer_id: organisation.id, member_id: member.sub, credits: 25 };
    const first = await transfer(owner, body, 'retry-me');
    const second = await transfer(owner, body, 'retry-me');
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(await transferCount(organisation.id)).toBe(1);
    expect(await customerBalance(server.db, organisation.id)).toBe(75);
    expect((await userLedger(member.sub)).filter((row) => row.kind === 'transfer')).toHaveLength(1);

    const changed = await transfer(owner, { ...body, credits: 26 }, 'retry-me');
    expect(changed.status).toBe(422);
    expect(changed.body).toEqual({ detail: 'This Idempotency-Key was used with a different request.' });
    expect(await transferCount(organisation.id)).toBe(1);
  });

  it('refuses more than the balance with 402 and frees the key for a retry', async () => {
    const { owner, member, organisation } = await organisationWithMember(20);
    const body = { customer_id: organisation.id, member_id: member.sub, credits: 21 };
    const short = await transfer(owner, body, 'too-much');
    expect(short.status).toBe(402);
    expect(short.body).toEqual({ detail: 'The organisation has 20 credits; it cannot transfer 21.' });
    expect(await transferCount(organisation.id)).toBe(0);

    await fund(organisation.id, 1);
    expect((await transfer(owner, body, 'too-much')).status).toBe(200);
    expect(await customerBalance(server.db, organisation.id)).toBe(0);
  });

  it('refuses a person who is not a member, and a bad amount', async () => {
    const { owner, organisation } = await organisationWithMember(100);
    const outsider = await person('notmember');
    const answer = await transfer(owner, { customer_id: organisation.id, member_id: outsider.sub, credits: 5 }, 'not-member');
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ detail: 'This person is not a member of the organisation.' });
    for (const credits of [0, -5, 1.5]) {
      const bad = await transfer(owner, { customer_id: organisation.id, member_id: outsider.sub, credits }, `bad-${credits}`);
      expect(bad.status).toBe(400);
    }
    expect(await customerBalance(server.db, organisation.id)).toBe(100);
  });

  it('never overdraws with concurrent transfers that together exceed the balance', async () => {
    const { owner, member, organisation } = await organisationWithMember(100);
    const start = (await userLedger(member.sub)).reduce((sum, row) => sum + row.amount, 0);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        transfer(owner, { customer_id: organisation.id, member_id: member.sub, credits: 30 }, `concurrent-${index}`),
      ),
    );
    const succeeded = answers.filter((answer) => answer.status === 200);
    for (const answer of answers.filter((entry) => entry.status !== 200)) {
      expect(answer.status).toBe(402);
      expect(answer.body?.detail).toMatch(/^The organisation has \d+ credits; it cannot transfer 30\.$/);
    }
    const moved = succeeded.length * 30;
    expect(succeeded.length).toBeGreaterThan(0);
    expect(moved).toBeLessThanOrEqual(100);
    const balance = await customerBalance(server.db, organisation.id);
    expect(balance).toBeGreaterThanOrEqual(0);
    expect(balance).toBe(100 - moved);
    expect(await transferCount(organisation.id)).toBe(succeeded.length);
    const end = (await userLedger(member.sub)).reduce((sum, row) => sum + row.amount, 0);
    expect(end - start).toBe(moved);
  });

  it('is guarded by the database: a ledger row that overdraws the organisation is refused', async () => {
    const { organisation } = await organisationWithMember(10);
    await expect(
      server.db.transaction((tx) => creditCustomerAccount(tx, { customerId: organisation.id, amount: -11, kind: 'transfer', reason: 'too much' })),
    ).rejects.toMatchObject({ code: '23514' });
    expect(await customerBalance(server.db, organisation.id)).toBe(10);
  });
});

describe('buying credits for the organisation', () => {
  it('opens a checkout for the owner, and paying it credits the organisation', async () => {
    const { owner, organisation } = await organisationWithMember();
    const answer = await callApi(server, 'customer/user/purchase', {
      method: 'POST',
      token: owner.accessToken,
      json: { customer_id: organisation.id, pack_id: 'pack-100' },
    });
    expect(answer.status).toBe(200);
    const checkout = checkoutSchema.parse(answer.body?.data);
    expect(checkout.checkout_url).toBe(`/local/checkout/${checkout.session_id}`);
    const { rows } = await server.db.query<{ customer_id: string; user_sub: string; status: string }>(
      'SELECT customer_id, user_sub, status FROM checkout_sessions WHERE id = $1',
      [checkout.session_id],
    );
    expect(rows).toEqual([{ customer_id: organisation.id, user_sub: owner.sub, status: 'open' }]);

    expect((await confirmCheckout(server.db, checkout.session_id, 'webhook')).outcome).toBe('confirmed');
    expect(await customerBalance(server.db, organisation.id)).toBe(100);
    const read = asCustomer(await callApi(server, `customers/${organisation.id}`, { token: owner.accessToken }));
    expect(read.balance).toBe(100);
  });

  it('answers 404 for an unknown pack', async () => {
    const { owner, organisation } = await organisationWithMember();
    const answer = await callApi(server, 'customer/user/purchase', {
      method: 'POST',
      token: owner.accessToken,
      json: { customer_id: organisation.id, pack_id: 'pack-nope' },
    });
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ detail: 'This credit pack does not exist.' });
  });
});

describe('deleting an account', () => {
  const deleteAccount = (who: Person) => callApi(server, 'users', { method: 'DELETE', token: who.accessToken });

  it("removes the person's memberships", async () => {
    const { owner, member, organisation } = await organisationWithMember();
    expect((await deleteAccount(member)).status).toBe(200);
    const read = asCustomer(await callApi(server, `customers/${organisation.id}`, { token: owner.accessToken }));
    expect(read.members).toEqual([]);
  });

  it('refuses while an owned organisation holds credits, and removes an empty one', async () => {
    const { owner, member, organisation } = await organisationWithMember(40);
    const refused = await deleteAccount(owner);
    expect(refused.status).toBe(409);
    expect(refused.body?.detail).toBe(
      `Your organisation "${organisation.name}" still has 40 credits. Transfer them to its members before you delete your account.`,
    );
    // Nothing changed: the account and the organisation are as they were.
    expect((await callApi(server, `customers/${organisation.id}`, { token: owner.accessToken })).status).toBe(200);
    expect(await server.emulator.identity.userExistsByEmail(owner.email)).toBe(true);

    expect((await transfer(owner, { customer_id: organisation.id, member_id: member.sub, credits: 40 }, 'empty-it')).status).toBe(200);
    expect((await deleteAccount(owner)).status).toBe(200);
    expect((await callApi(server, `customers/${organisation.id}`, { token: member.accessToken })).status).toBe(404);
    expect(customerListSchema.parse((await callApi(server, 'customers', { token: member.accessToken })).body?.data).items).toEqual([]);
  });
});
