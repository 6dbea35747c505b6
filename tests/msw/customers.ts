import { http } from 'msw';
import { CREDIT_PACKS } from '@/config/billing';
import { memberKey, memberSubOf } from '@/config/customers';
import type { CheckoutStatus } from '@/services/schemas/payments';
import type { Customer, CustomerTransfer } from '@/services/schemas/customers';
import { answer, API, detail, organisationRecord, type FakeOrganisation } from './data';

/**
 * A small stand-in for the organisation calls of issue 7 (customers, members, transfers, the
 * organisation's checkout) and for users/contact-us, answering as the local server would from an
 * in-memory store. The caller is the `sub` of the access token. People who can be added are
 * registered with `addPerson`; tests read what was sent from `fakeCustomers.requests`.
 * `customerHandlers` are in the shared default list; reset with `resetFakeCustomers()`.
 */

export interface FakePerson {
  sub: string;
  email: string;
  handle: string | null;
}

export type { FakeOrganisation } from './data';

export interface FakeCustomerRequest {
  call: string;
  json: Record<string, unknown> | null;
  idempotencyKey: string | null;
  signedIn: boolean;
}

interface FakeCustomersState {
  people: Map<string, FakePerson>;
  organisations: Map<string, FakeOrganisation>;
  requests: FakeCustomerRequest[];
  /** Idempotency-Key → the first answer of a transfer. */
  replies: Map<string, unknown>;
  /** The next transfers answer with this failure (then it is used up). */
  failTransfer: { status: number; detail: string } | null;
  /** purchase answers 500 while set. */
  failPurchase: boolean;
  /** users/contact-us answers 400 with this detail while set. */
  failContact: string | null;
  /** The statuses credits/checkout/{id} answers. */
  checkouts: Map<string, CheckoutStatus>;
  nextId: number;
}

export const fakeCustomers: FakeCustomersState = {
  people: new Map(),
  organisations: new Map(),
  requests: [],
  replies: new Map(),
  failTransfer: null,
  failPurchase: false,
  failContact: null,
  checkouts: new Map(),
  nextId: 1,
};

export function resetFakeCustomers(): void {
  fakeCustomers.people = new Map();
  fakeCustomers.organisations = new Map();
  fakeCustomers.requests = [];
  fakeCustomers.replies = new Map();
  fakeCustomers.failTransfer = null;
  fakeCustomers.failPurchase = false;
  fakeCustomers.failContact = null;
  fakeCustomers.checkouts = new Map();
  fakeCustomers.nextId = 1;
}

export function addPerson(person: FakePerson): FakePerson {
  fakeCustomers.people.set(person.sub, person);
  return person;
}

const stamp = (): string => new Date(Date.parse('2025-03-01T10:00:00Z') + fakeCustomers.nextId * 60_000).toISOString();

export function addOrganisation(overrides: Partial<FakeOrganisation> & { ownerSub: string }): FakeOrganisation {
  const organisation = organisationRecord(`org-${fakeCustomers.nextId++}`, stamp(), overrides);
  fakeCustomers.organisations.set(organisation.id, organisation);
  return organisation;
}

/** A member as stored, for an organisation made by `addOrganisation`. */
export const member = (sub: string, creditsReceived = 0) => ({ sub, addedAt: stamp(), creditsReceived });

/** The `sub` of the access token (the fake pool's tokens are unsigned JWTs), or null signed out. */
function callerOf(request: Request): string | null {
  const token = request.headers.get('Authorization');
  if (!token) return null;
  try {
    const payload = JSON.parse(atob(token.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/'))) as { sub?: string };
    return payload.sub ?? null;
  } catch {
    return null;
  }
}

const unauthorized = () => detail(401, 'User needs to be authenticated to call this API.');
const notFound = () => detail(404, 'Failed to find an organisation with this id.');
const ownerOnly = () => detail(403, "Only the organisation's owner can do this.");

async function record(request: Request, call: string): Promise<FakeCustomerRequest> {
  let json: Record<string, unknown> | null = null;
  if (request.method === 'POST') json = (await request.json()) as Record<string, unknown>;
  const entry = { call, json, idempotencyKey: request.headers.get('Idempotency-Key'), signedIn: callerOf(request) !== null };
  fakeCustomers.requests.push(entry);
  return entry;
}

function answerOf(organisation: FakeOrganisation, caller: string): Customer {
  const owner = caller === organisation.ownerSub;
  const person = (sub: string) => fakeCustomers.people.get(sub);
  return {
    id: organisation.id,
    name: organisation.name,
    role: owner ? 'owner' : 'member',
    owner: { id: organisation.ownerSub, preferred_username: person(organisation.ownerSub)?.handle ?? null },
    balance: owner ? organisation.balance : null,
    members: organisation.members.map((entry) => ({
      key: memberKey(entry.sub),
      id: entry.sub,
      preferred_username: person(entry.sub)?.handle ?? null,
      email: owner ? (person(entry.sub)?.email ?? null) : null,
      added_at: entry.addedAt,
      credits_received: owner ? entry.creditsReceived : 0,
    })),
    transfers: owner ? organisation.transfers.slice(0, 20) : [],
    created_at: organisation.createdAt,
  };
}

/** The organisation the caller may see, or null. */
function visible(id: string, caller: string): FakeOrganisation | null {
  const organisation = fakeCustomers.organisations.get(id);
  if (!organisation) return null;
  if (organisation.ownerSub === caller || organisation.members.some((entry) => entry.sub === caller)) return organisation;
  return null;
}

const ok = answer;

export const customerHandlers = [
  http.get(`${API}/customers`, async ({ request }) => {
    await record(request, 'GET customers');
    const caller = callerOf(request);
    if (!caller) return unauthorized();
    const items = [...fakeCustomers.organisations.values()]
      .filter((organisation) => visible(organisation.id, caller))
      .map((organisation) => ({
        id: organisation.id,
        name: organisation.name,
        role: organisation.ownerSub === caller ? 'owner' : 'member',
        member_count: organisation.members.length,
      }));
    return ok({ items });
  }),
  http.post(`${API}/customers`, async ({ request }) => {
    const { json } = await record(request, 'POST customers');
    const caller = callerOf(request);
    if (!caller) return unauthorized();
    const name = String(json?.name ?? '').trim();
    if (!name) return detail(400, 'Request body is invalid: name: Too small');
    return ok(answerOf(addOrganisation({ ownerSub: caller, name }), caller));
  }),
  http.get(`${API}/customers/:id`, async ({ request, params }) => {
    await record(request, `GET customers/${String(params.id)}`);
    const caller = callerOf(request);
    if (!caller) return unauthorized();
    const organisation = visible(String(params.id), caller);
    return organisation ? ok(answerOf(organisation, caller)) : notFound();
  }),
  http.post(`${API}/customers/members`, async ({ request }) => {
    const { json } = await record(request, 'POST customers/members');
    const caller = callerOf(request);
    if (!caller) return unauthorized();
    const organisation = visible(String(json?.customer_id), caller);
    if (!organisation) return notFound();
    if (organisation.ownerSub !== caller) return ownerOnly();
    const wanted = String(json?.member ?? '').trim().replace(/^@/, '').toLowerCase();
    const person = [...fakeCustomers.people.values()].find(
      (candidate) => candidate.email.toLowerCase() === wanted || candidate.handle?.toLowerCase() === wanted,
    );
    if (!person) return detail(404, 'No Kinora account has this e-mail or handle.');
    if (person.sub === caller) return detail(400, 'You own this organisation already.');
    if (organisation.members.some((entry) => entry.sub === person.sub)) return detail(409, 'This person is already a member.');
    organisation.members.push(member(person.sub));
    return ok(answerOf(organisation, caller));
  }),
  http.delete(`${API}/customers/:customerId/members/:memberId`, async ({ request, params }) => {
    await record(request, `DELETE customers/${String(params.customerId)}/members/${String(params.memberId)}`);
    const caller = callerOf(request);
    if (!caller) return unauthorized();
    const organisation = visible(String(params.customerId), caller);
    if (!organisation) return notFound();
    if (organisation.ownerSub !== caller) return ownerOnly();
    const sub = memberSubOf(String(params.memberId));
    if (!organisation.members.some((entry) => entry.sub === sub)) return detail(404, 'This person is not a member of the organisation.');
    organisation.members = organisation.members.filter((entry) => entry.sub !== sub);
    return ok(answerOf(organisation, caller));
  }),
  http.post(`${API}/customers/credits/transfer`, async ({ request }) => {
    const { json, idempotencyKey } = await record(request, 'POST customers/credits/transfer');
    const caller = callerOf(request);
    if (!caller) return unauthorized();
    if (!idempotencyKey) return detail(400, 'Send an Idempotency-Key header so a retried transfer is not made twice.');
    const replay = fakeCustomers.replies.get(idempotencyKey);
    if (replay) return ok(replay);
    if (fakeCustomers.failTransfer) {
      const failure = fakeCustomers.failTransfer;
      fakeCustomers.failTransfer = null;
      return detail(failure.status, failure.detail);
    }
    const organisation = visible(String(json?.customer_id), caller);
    if (!organisation) return notFound();
    if (organisation.ownerSub !== caller) return ownerOnly();
    const sub = memberSubOf(String(json?.member_id));
    const entry = organisation.members.find((candidate) => candidate.sub === sub);
    if (!entry) return detail(404, 'This person is not a member of the organisation.');
    const credits = Number(json?.credits);
    if (credits > organisation.balance) {
      return detail(402, `The organisation has ${organisation.balance} credits; it cannot transfer ${credits}.`);
    }
    organisation.balance -= credits;
    entry.creditsReceived += credits;
    const transfer: CustomerTransfer = {
      id: `transfer-${fakeCustomers.nextId++}`,
      member_id: sub,
      member_handle: fakeCustomers.people.get(sub)?.handle ?? null,
      credits,
      created_at: stamp(),
    };
    organisation.transfers.unshift(transfer);
    const answer = { transfer, customer: answerOf(organisation, caller) };
    fakeCustomers.replies.set(idempotencyKey, answer);
    return ok(answer);
  }),
  http.post(`${API}/customer/user/purchase`, async ({ request }) => {
    const { json } = await record(request, 'POST customer/user/purchase');
    const caller = callerOf(request);
    if (!caller) return unauthorized();
    const organisation = visible(String(json?.customer_id), caller);
    if (!organisation) return notFound();
    if (organisation.ownerSub !== caller) return ownerOnly();
    if (fakeCustomers.failPurchase) return detail(500, 'The card provider is not answering.');
    const pack = CREDIT_PACKS.find((candidate) => candidate.id === json?.pack_id);
    if (!pack) return detail(404, 'This credit pack does not exist.');
    const sessionId = `cs_${fakeCustomers.nextId++}`;
    return ok({ session_id: sessionId, checkout_url: `/local/checkout/${sessionId}` });
  }),
];

/**
 * GET credits/checkout/{id} answering from `fakeCustomers.checkouts` (not in the default list: the
 * credits page's fake owns that call there). Install with `server.use(checkoutStatusHandler())`.
 */
export const checkoutStatusHandler = () =>
  http.get(`${API}/credits/checkout/:sessionId`, async ({ request, params }) => {
    await record(request, `GET credits/checkout/${String(params.sessionId)}`);
    const status = fakeCustomers.checkouts.get(String(params.sessionId));
    return status ? ok(status) : detail(404, 'This checkout does not exist.');
  });

/** POST users/contact-us as the server answers it (signed in or not). */
export const contactHandler = () =>
  http.post(`${API}/users/contact-us`, async ({ request }) => {
    await record(request, 'POST users/contact-us');
    if (fakeCustomers.failContact) return detail(400, fakeCustomers.failContact);
    return answer({ id: `msg-${fakeCustomers.nextId++}` }, { status: 201 });
  });
