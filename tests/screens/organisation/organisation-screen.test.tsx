import { beforeEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '@/config/messages';
import { OrganisationScreen } from '@/screens/organisation/organisation-screen';
import {
  addOrganisation,
  addPerson,
  checkoutStatusHandler,
  fakeCustomers,
  member,
  resetFakeCustomers,
} from '../../msw/customers';
import { server } from '../../msw/server';
import { render, renderApp, screen, userEvent, waitFor, within } from '../../test-utils';
import { PAGE_LOAD } from '../generation-helpers';
import { alice, signedInAs } from '../session-helpers';

const user = userEvent.setup();
const bob = { username: 'bob@example.com', attributes: { preferred_username: 'bob' } };

beforeEach(() => resetFakeCustomers());

const requestsTo = (call: string) => fakeCustomers.requests.filter((request) => request.call === call);
const membersTable = () => screen.getByRole('table', { name: 'Members of the organisation' });
const rowOf = (text: string) => within(membersTable()).getByText(text).closest('tr') as HTMLElement;

/** Alice signed in, owning "Acme Studio" (500 credits) with Bob as a member; Cleo can be added. */
async function aliceOwnsAcme(balance = 500) {
  const signed = await signedInAs(alice);
  addPerson({ sub: signed.sub, email: alice.username, handle: 'alice' });
  addPerson({ sub: 'bob-sub', email: 'bob@example.com', handle: 'bob' });
  addPerson({ sub: 'cleo-sub', email: 'cleo@example.com', handle: 'cleo' });
  return addOrganisation({ ownerSub: signed.sub, name: 'Acme Studio', balance, members: [member('bob-sub')] });
}

describe('the organisations page', { timeout: 30_000 }, () => {
  it('asks a signed-out visitor to sign in', async () => {
    renderApp('/organisation');
    expect(await screen.findByRole('link', { name: 'Sign in to see your organisations' }, PAGE_LOAD)).toHaveAttribute('href', '/authentication');
    expect(screen.getByRole('heading', { level: 1, name: 'Organisation' })).toBeInTheDocument();
  });

  it('lists the organisations owned and belonged to, and creates one that opens', async () => {
    const signed = await signedInAs(alice);
    addOrganisation({ ownerSub: signed.sub, name: 'Acme Studio', members: [member('bob-sub')] });
    addOrganisation({ ownerSub: 'olga-sub', name: 'Night Owls', members: [member(signed.sub)] });
    const { router } = renderApp('/organisation');

    const acme = await screen.findByRole('link', { name: 'Open Acme Studio' }, PAGE_LOAD);
    expect(acme).toHaveAttribute('href', '/organisation/org-1');
    const owls = screen.getByRole('link', { name: 'Open Night Owls' }).closest('li') as HTMLElement;
    expect(within(owls).getByText('Member')).toBeInTheDocument();
    expect(within(acme.closest('li') as HTMLElement).getByText('1 member')).toBeInTheDocument();

    const form = screen.getByRole('form', { name: 'Create an organisation' });
    await user.click(within(form).getByRole('button', { name: 'Create organisation' }));
    expect(await within(form).findByText('Give the organisation a name.')).toBeInTheDocument();
    expect(requestsTo('POST customers')).toEqual([]);

    await user.type(within(form).getByRole('textbox', { name: /Organisation name/ }), 'Lighthouse Films');
    await user.click(within(form).getByRole('button', { name: 'Create organisation' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/organisation/org-3'));
    expect(requestsTo('POST customers')[0]?.json).toEqual({ name: 'Lighthouse Films' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Lighthouse Films' }, PAGE_LOAD)).toBeInTheDocument();
    expect(screen.getByText('No members yet. Add people by e-mail or handle below.')).toBeInTheDocument();
  });

  it('says when there is no organisation yet', async () => {
    await signedInAs(alice);
    renderApp('/organisation');
    expect(await screen.findByText(/You are in no organisation yet/, {}, PAGE_LOAD)).toBeInTheDocument();
  });
});

describe('an organisation, for its owner', { timeout: 30_000 }, () => {
  it('shows the balance, the members with their e-mail and member key, and adds one by handle', async () => {
    const org = await aliceOwnsAcme();
    renderApp(`/organisation/${org.id}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Acme Studio' }, PAGE_LOAD)).toBeInTheDocument();
    expect(screen.getByText('Owned by you')).toBeInTheDocument();
    expect(screen.getByText('500 credits')).toBeInTheDocument();

    const bobRow = rowOf('@bob');
    expect(within(bobRow).getByText('bob@example.com')).toBeInTheDocument();
    const key = within(bobRow).getByText('b2b_members_bob-sub');
    expect(within(bobRow).getByLabelText('Business member key: b2b_members_bob-sub')).toContainElement(key);
    expect(key.getAttribute('style')).toContain('font-family: var(--mantine-font-family-monospace)');
    await user.hover(key);
    expect(await screen.findByText('Business member key')).toBeInTheDocument();

    const form = screen.getByRole('form', { name: 'Add a member' });
    const field = within(form).getByRole('textbox', { name: 'E-mail or @handle' });
    await user.type(field, 'not an address!');
    await user.click(within(form).getByRole('button', { name: 'Add member' }));
    expect(await within(form).findByText(/Write an e-mail address \(name@example.com\) or a handle/)).toBeInTheDocument();
    expect(requestsTo('POST customers/members')).toEqual([]);

    await user.clear(field);
    await user.type(field, 'nobody@example.com');
    await user.click(within(form).getByRole('button', { name: 'Add member' }));
    expect(await within(form).findByText('No Kinora account has this e-mail or handle.')).toBeInTheDocument();
    expect(field).toHaveValue('nobody@example.com');

    await user.clear(field);
    await user.type(field, '@bob');
    await user.click(within(form).getByRole('button', { name: 'Add member' }));
    expect(await within(form).findByText('This person is already a member.')).toBeInTheDocument();

    await user.clear(field);
    await user.type(field, '@Cleo');
    await user.click(within(form).getByRole('button', { name: 'Add member' }));
    expect(await screen.findByText('@cleo was added.')).toBeInTheDocument();
    expect(within(rowOf('@cleo')).getByText('b2b_members_cleo-sub')).toBeInTheDocument();
    expect(field).toHaveValue('');
    expect(requestsTo('POST customers/members').at(-1)?.json).toEqual({ customer_id: org.id, member: '@Cleo' });
  });

  it('removes a member after asking, and keeps them when the owner changes their mind', async () => {
    const org = await aliceOwnsAcme();
    renderApp(`/organisation/${org.id}`);
    await user.click(await screen.findByRole('button', { name: 'Remove @bob' }, PAGE_LOAD));
    // The first question may wait for the dialogs' host to download (components/confirm/modals-host.tsx).
    let dialog = await screen.findByRole('dialog', { name: 'Remove this member?' });
    await user.click(within(dialog).getByRole('button', { name: 'Keep' }));
    expect(requestsTo(`DELETE customers/${org.id}/members/bob-sub`)).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Remove @bob' }));
    dialog = screen.getByRole('dialog', { name: 'Remove this member?' });
    expect(within(dialog).getByText(/@bob leaves the organisation/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('@bob was removed.')).toBeInTheDocument();
    expect(screen.queryByRole('table', { name: 'Members of the organisation' })).not.toBeInTheDocument();
    expect(requestsTo(`DELETE customers/${org.id}/members/bob-sub`)).toHaveLength(1);
  });

  it('transfers credits to a member: 1 to the balance, then the balance, credits received and transfers change', async () => {
    const org = await aliceOwnsAcme(200);
    renderApp(`/organisation/${org.id}`);
    expect(await screen.findByText('No transfers yet.', {}, PAGE_LOAD)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Transfer credits to @bob' }));
    const dialog = screen.getByRole('dialog', { name: 'Transfer credits to @bob' });
    const credits = within(dialog).getByRole('textbox', { name: 'Credits' });
    expect(within(dialog).getByText('The organisation has 200 credits.')).toBeInTheDocument();

    await user.type(credits, '0');
    await user.click(within(dialog).getByRole('button', { name: 'Transfer' }));
    expect(await within(dialog).findByText('Transfer at least 1 credit.')).toBeInTheDocument();
    await user.clear(credits);
    await user.type(credits, '201');
    await user.click(within(dialog).getByRole('button', { name: 'Transfer' }));
    expect(await within(dialog).findByText('The organisation has 200 credits; transfer at most that.')).toBeInTheDocument();
    expect(requestsTo('POST customers/credits/transfer')).toEqual([]);

    await user.clear(credits);
    await user.type(credits, '75');
    await user.click(within(dialog).getByRole('button', { name: 'Transfer' }));
    expect(await screen.findByText('75 credits transferred to @bob.')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByText('125 credits')).toBeInTheDocument();
    expect(within(rowOf('@bob')).getByText('75')).toBeInTheDocument();
    const transfers = screen.getByRole('table', { name: 'Recent transfers' });
    expect(within(transfers).getByText('@bob')).toBeInTheDocument();
    expect(within(transfers).getByText('75')).toBeInTheDocument();
    const [sent] = requestsTo('POST customers/credits/transfer');
    expect(sent?.json).toEqual({ customer_id: org.id, member_id: 'bob-sub', credits: 75 });
    expect(sent?.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('retries a refused transfer with the same Idempotency-Key, and moves the credits once', async () => {
    const org = await aliceOwnsAcme(200);
    renderApp(`/organisation/${org.id}`);
    await user.click(await screen.findByRole('button', { name: 'Transfer credits to @bob' }, PAGE_LOAD));
    const dialog = screen.getByRole('dialog', { name: 'Transfer credits to @bob' });
    fakeCustomers.failTransfer = { status: 402, detail: 'The organisation has 0 credits; it cannot transfer 40.' };
    await user.type(within(dialog).getByRole('textbox', { name: 'Credits' }), '40');
    await user.click(within(dialog).getByRole('button', { name: 'Transfer' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('The organisation has 0 credits; it cannot transfer 40.');

    await user.click(within(dialog).getByRole('button', { name: 'Retry the transfer' }));
    expect(await screen.findByText('40 credits transferred to @bob.')).toBeInTheDocument();
    const sent = requestsTo('POST customers/credits/transfer');
    expect(sent).toHaveLength(2);
    expect(sent[1]?.idempotencyKey).toBe(sent[0]?.idempotencyKey);
    expect(fakeCustomers.organisations.get(org.id)?.balance).toBe(160);
  });

  it('buys a pack for the organisation by leaving for the checkout', async () => {
    const org = await aliceOwnsAcme();
    const leaveApp = vi.fn();
    render(<OrganisationScreen id={org.id} leaveApp={leaveApp} />, { route: `/organisation/${org.id}` });
    const buy = await screen.findByRole('region', { name: 'Buy credits for the organisation' }, PAGE_LOAD);
    expect(within(buy).getByText('Creator: 500 credits for $45.00')).toBeInTheDocument();
    await user.click(within(buy).getByRole('button', { name: 'Buy Creator' }));
    await waitFor(() => expect(leaveApp).toHaveBeenCalledTimes(1));
    expect(leaveApp.mock.calls[0]?.[0]).toMatch(/^\/local\/checkout\/cs_\d+$/);
    expect(within(buy).getByText('Opening the checkout…')).toBeInTheDocument();
    expect(requestsTo('POST customer/user/purchase')[0]?.json).toEqual({ customer_id: org.id, pack_id: 'pack-500' });
  });

  it('says buying failed with the message of SPEC §8 and stays', async () => {
    const org = await aliceOwnsAcme();
    fakeCustomers.failPurchase = true;
    const leaveApp = vi.fn();
    render(<OrganisationScreen id={org.id} leaveApp={leaveApp} />, { route: `/organisation/${org.id}` });
    await user.click(await screen.findByRole('button', { name: 'Buy Starter' }, PAGE_LOAD));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(MESSAGES.buyCreditsFailed.title);
    expect(alert).toHaveTextContent(MESSAGES.buyCreditsFailed.message);
    expect(leaveApp).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Buy Starter' })).toBeEnabled();
  });

  it('says the payment was received on the way back from the checkout, shows the new balance and clears the address', async () => {
    const org = await aliceOwnsAcme(600);
    server.use(checkoutStatusHandler());
    fakeCustomers.checkouts.set('cs_42', {
      session_id: 'cs_42',
      status: 'paid',
      pack_id: 'pack-500',
      credits: 500,
      amount_cents: 4500,
      currency: 'USD',
      customer_id: org.id,
      payment_id: 'pay-1',
    });
    const { router } = renderApp(`/organisation/${org.id}?checkout=success&session_id=cs_42`);
    expect(await screen.findByText('Payment received: 500 credits were added to the organisation.', {}, PAGE_LOAD)).toBeInTheDocument();
    expect(screen.getByText('600 credits')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(router.state.location.pathname).toBe(`/organisation/${org.id}`);
    await user.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByText(/Payment received/)).not.toBeInTheDocument();
  });

  it('says a cancelled checkout charged nothing', async () => {
    const org = await aliceOwnsAcme();
    server.use(checkoutStatusHandler());
    fakeCustomers.checkouts.set('cs_43', {
      session_id: 'cs_43',
      status: 'cancelled',
      pack_id: 'pack-100',
      credits: 100,
      amount_cents: 1000,
      currency: 'USD',
      customer_id: org.id,
      payment_id: null,
    });
    renderApp(`/organisation/${org.id}?checkout=cancelled&session_id=cs_43`);
    expect(await screen.findByText('Payment cancelled: nothing was charged.', {}, PAGE_LOAD)).toBeInTheDocument();
  });
});

describe('an organisation, for a member', { timeout: 30_000 }, () => {
  it('shows the name, the owner, the members with their keys and where credits come from; nothing an owner does', async () => {
    const signed = await signedInAs(bob);
    addPerson({ sub: 'olga-sub', email: 'olga@example.com', handle: 'olga' });
    addPerson({ sub: signed.sub, email: bob.username, handle: 'bob' });
    const org = addOrganisation({ ownerSub: 'olga-sub', name: 'Night Owls', balance: 900, members: [member(signed.sub, 50)] });
    renderApp(`/organisation/${org.id}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Night Owls' }, PAGE_LOAD)).toBeInTheDocument();
    expect(screen.getByText('Owned by @olga')).toBeInTheDocument();
    expect(screen.getByText('You are a member')).toBeInTheDocument();
    expect(screen.getByText(/Credits come from the organisation’s owner/)).toBeInTheDocument();
    expect(within(rowOf('@bob')).getByText(`b2b_members_${signed.sub}`)).toBeInTheDocument();
    expect(within(membersTable()).queryByRole('columnheader', { name: 'E-mail' })).not.toBeInTheDocument();
    expect(screen.queryByText('900 credits')).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Buy credits for the organisation' })).not.toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Add a member' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Transfer credits/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Remove/ })).not.toBeInTheDocument();
  });

  it('says when an organisation does not exist or is not theirs', async () => {
    await signedInAs(alice);
    addOrganisation({ ownerSub: 'olga-sub', name: 'Secret' });
    renderApp('/organisation/org-1');
    expect(await screen.findByText('This organisation does not exist, or you are not in it.', {}, PAGE_LOAD)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'All organisations' })).toHaveAttribute('href', '/organisation');
  });
});
