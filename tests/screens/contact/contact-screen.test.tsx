import { beforeEach, describe, expect, it } from 'vitest';
import { supportEmail } from '@/config/support';
import { contactHandler, fakeCustomers, resetFakeCustomers } from '../../msw/customers';
import { server } from '../../msw/server';
import { renderApp, screen, userEvent, within } from '../../test-utils';
import { PAGE_LOAD } from '../generation-helpers';
import { alice, signedInAs } from '../session-helpers';

const user = userEvent.setup();

beforeEach(() => {
  resetFakeCustomers();
  server.use(contactHandler());
});

const sent = () => fakeCustomers.requests.filter((request) => request.call === 'POST users/contact-us');
const form = () => screen.getByRole('form', { name: 'Contact us' });
const field = (name: RegExp) => within(form()).getByRole('textbox', { name });

describe('the contact-us page', { timeout: 30_000 }, () => {
  it('shows the support address, checks the fields, and sends a message signed out', async () => {
    renderApp('/contact-us');
    await screen.findByRole('form', { name: 'Contact us' }, PAGE_LOAD);
    const orWrite = screen.getByText(/You can also write to/);
    expect(within(orWrite).getByRole('link', { name: supportEmail() })).toHaveAttribute('href', `mailto:${supportEmail()}`);

    await user.click(within(form()).getByRole('button', { name: 'Send message' }));
    expect(await within(form()).findByText('Write your name.')).toBeInTheDocument();
    expect(within(form()).getByText('Write a valid e-mail address.')).toBeInTheDocument();
    expect(within(form()).getByText('Write at least 10 characters.')).toBeInTheDocument();

    await user.type(field(/Your name/), 'Ada');
    await user.type(field(/Your e-mail/), 'ada@example');
    await user.type(field(/Message/), 'Too short');
    await user.click(within(form()).getByRole('button', { name: 'Send message' }));
    expect(await within(form()).findByText('Write a valid e-mail address.')).toBeInTheDocument();
    expect(within(form()).getByText('Write at least 10 characters.')).toBeInTheDocument();
    expect(within(form()).queryByText('Write your name.')).not.toBeInTheDocument();
    expect(sent()).toEqual([]);

    await user.type(field(/Your e-mail/), '.com');
    await user.type(field(/Message/), ' — how do organisations share credits?');
    expect(within(form()).getByText('47 / 5000 characters')).toBeInTheDocument();
    await user.click(within(form()).getByRole('button', { name: 'Send message' }));

    expect(await screen.findByText('Message sent — we answer at ada@example.com within two working days.')).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Contact us' })).not.toBeInTheDocument();
    expect(sent()).toEqual([
      {
        call: 'POST users/contact-us',
        json: { name: 'Ada', email: 'ada@example.com', message: 'Too short — how do organisations share credits?' },
        idempotencyKey: null,
        signedIn: false,
      },
    ]);

    await user.click(screen.getByRole('button', { name: 'Write another message' }));
    expect(field(/Message/)).toHaveValue('');
    expect(field(/Your name/)).toHaveValue('Ada');
  });

  it('fills in the signed-in person’s e-mail and sends with their session', async () => {
    await signedInAs(alice);
    renderApp('/contact-us');
    await screen.findByRole('form', { name: 'Contact us' }, PAGE_LOAD);
    expect(await within(form()).findByDisplayValue(alice.username)).toBe(field(/Your e-mail/));
    await user.type(field(/Your name/), 'Alice');
    await user.type(field(/Message/), 'Please send me an invoice.');
    await user.click(within(form()).getByRole('button', { name: 'Send message' }));
    expect(await screen.findByText(`Message sent — we answer at ${alice.username} within two working days.`)).toBeInTheDocument();
    expect(sent()[0]).toMatchObject({ json: { email: alice.username }, signedIn: true });
  });

  it('shows the API message when sending fails and keeps what was typed', async () => {
    fakeCustomers.failContact = 'Request body is invalid: email: Invalid email address';
    renderApp('/contact-us');
    await screen.findByRole('form', { name: 'Contact us' }, PAGE_LOAD);
    await user.type(field(/Your name/), 'Ada');
    await user.type(field(/Your e-mail/), 'ada@example.com');
    await user.type(field(/Message/), 'My result never finished.');
    await user.click(within(form()).getByRole('button', { name: 'Send message' }));

    const alert = await within(form()).findByRole('alert');
    expect(alert).toHaveTextContent('Your message was not sent');
    expect(alert).toHaveTextContent('Request body is invalid: email: Invalid email address');
    expect(field(/Your name/)).toHaveValue('Ada');
    expect(field(/Your e-mail/)).toHaveValue('ada@example.com');
    expect(field(/Message/)).toHaveValue('My result never finished.');

    fakeCustomers.failContact = null;
    await user.click(within(form()).getByRole('button', { name: 'Send message' }));
    expect(await screen.findByText(/Message sent — we answer at ada@example.com/)).toBeInTheDocument();
    expect(sent()).toHaveLength(2);
  });
});
