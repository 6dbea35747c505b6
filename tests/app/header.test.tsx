import { delay, http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { API, fakeApi } from '../msw/handlers';
import { server } from '../msw/server';
import { alice, signedInAs } from '../screens/session-helpers';
import { renderApp, screen, userEvent, waitFor, within } from '../test-utils';

const user = userEvent.setup();

describe('header', () => {
  it('offers "Sign in" to a signed-out visitor', async () => {
    renderApp('/');
    const header = screen.getByRole('banner');
    expect(await within(header).findByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/authentication');
    expect(within(header).queryByLabelText('Credit balance')).not.toBeInTheDocument();
  });

  it('shows the balance and the account menu to a signed-in user', async () => {
    fakeApi.credits = 42;
    await signedInAs(alice);
    renderApp('/ai-image/');
    const header = screen.getByRole('banner');
    await waitFor(() => expect(within(header).getByLabelText('Credit balance')).toHaveTextContent('42 credits'));
    const menu = within(header).getByRole('button', { name: 'Account menu' });
    expect(menu).toHaveTextContent('alice');
    expect(within(header).queryByRole('link', { name: 'Sign in' })).not.toBeInTheDocument();

    await user.click(menu);
    expect(await screen.findByRole('menuitem', { name: 'Account' })).toHaveAttribute('href', '/account');
    expect(screen.getByRole('menuitem', { name: 'Sign out' })).toBeInTheDocument();
  });

  it('shows a placeholder for the balance while it loads', async () => {
    server.use(
      http.get(`${API}/credits/get`, async () => {
        await delay(300);
        return HttpResponse.json({ data: { credit: 7 } });
      }),
    );
    await signedInAs(alice);
    renderApp('/ai-image/');
    const header = screen.getByRole('banner');
    await within(header).findByRole('button', { name: 'Account menu' });
    expect(within(header).getByLabelText('Credit balance')).toHaveAttribute('aria-busy', 'true');
    await waitFor(() => expect(within(header).getByLabelText('Credit balance')).toHaveTextContent('7 credits'));
  });

  it('opens the account page from the menu', async () => {
    await signedInAs(alice);
    const { router } = renderApp('/ai-image/');
    await user.click(await screen.findByRole('button', { name: 'Account menu' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Account' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/account'));
  });

  it('signs out from the menu and returns to /', async () => {
    await signedInAs(alice);
    const { router } = renderApp('/ai-image/');
    await user.click(await screen.findByRole('button', { name: 'Account menu' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Sign out' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(await screen.findByRole('link', { name: 'Sign in' })).toBeInTheDocument();
  });

  it('says "Error" / "Failed to fetch user credits" after the first try and two retries fail', async () => {
    let attempts = 0;
    server.use(
      http.get(`${API}/credits/get`, () => {
        attempts += 1;
        return HttpResponse.json({ message: 'down' }, { status: 500 });
      }),
    );
    await signedInAs(alice);
    renderApp('/ai-image/');
    expect(await screen.findByText('Failed to fetch user credits', {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.getByText('Error')).toBeInTheDocument();
    expect(attempts).toBe(3);
  });

  it('keeps the user signed in and says so while the network is down', async () => {
    await signedInAs(alice);
    renderApp('/ai-image/');
    const header = screen.getByRole('banner');
    await within(header).findByRole('button', { name: 'Account menu' });
    window.dispatchEvent(new Event('offline'));
    expect(await within(header).findByText('offline — you stay signed in')).toBeInTheDocument();
    expect(within(header).getByRole('button', { name: 'Account menu' })).toBeInTheDocument();
    window.dispatchEvent(new Event('online'));
    await waitFor(() => expect(within(header).queryByText('offline — you stay signed in')).not.toBeInTheDocument());
  });
});
