import { delay, http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { fakePool } from '../msw/cognito';
import { API, fakeApi } from '../msw/handlers';
import { server } from '../msw/server';
import { renderApp, screen, userEvent, waitFor, within } from '../test-utils';
import { alice, signedInAs } from './session-helpers';

const user = userEvent.setup();

describe('/account', () => {
  it('asks a signed-out visitor to sign in', async () => {
    renderApp('/account');
    expect(await screen.findByText('You need to sign in to see your account.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to sign in' })).toHaveAttribute('href', '/authentication');
  });

  it('shows the current handle of a signed-in user', async () => {
    await signedInAs(alice);
    renderApp('/account');
    expect(await screen.findByRole('heading', { level: 1, name: 'Account' })).toBeInTheDocument();
    expect(await screen.findByRole('textbox', { name: 'Handle' })).toHaveValue('alice');
  });

  it('checks the handle format before asking the server', async () => {
    await signedInAs(alice);
    renderApp('/account');
    const handle = await screen.findByRole('textbox', { name: 'Handle' });
    await waitFor(() => expect(handle).toHaveValue('alice'));
    await user.clear(handle);
    await user.type(handle, 'a b');
    await user.click(screen.getByRole('button', { name: 'Save handle' }));
    expect(await screen.findByText('A handle has 3 to 30 characters: letters, digits, "_", "." or "-".', { selector: '.mantine-InputWrapper-error' })).toBeInTheDocument();
    expect(fakeApi.calls).not.toContain('POST users/available-username');
  });

  it('says so when the handle is taken, and keeps the old one', async () => {
    await signedInAs(alice);
    fakeApi.takenHandles.add('bob');
    const { router } = renderApp('/account');
    const handle = await screen.findByRole('textbox', { name: 'Handle' });
    await waitFor(() => expect(handle).toHaveValue('alice'));
    await user.clear(handle);
    await user.type(handle, 'bob');
    await user.click(screen.getByRole('button', { name: 'Save handle' }));
    expect(await screen.findByText('Handle not Available')).toBeInTheDocument();
    expect(screen.getByText('Your handle is not available Please choose another.')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/account');
    expect(fakePool.user('alice@example.com')?.attributes.preferred_username).toBe('alice');
  });

  it('saves a free handle and moves to the new profile', async () => {
    await signedInAs({ username: 'carol@example.com' });
    const { router } = renderApp('/account');
    const handle = await screen.findByRole('textbox', { name: 'Handle' });
    await user.type(handle, 'carol_films');
    await user.click(screen.getByRole('button', { name: 'Save handle' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/@carol_films'));
    expect(await screen.findByRole('heading', { level: 1, name: '@carol_films' })).toBeInTheDocument();
    // Issue 17: the save is confirmed.
    expect(await screen.findByText('Handle saved')).toBeInTheDocument();
    expect(screen.getByText('Your public profile is now at /@carol_films.')).toBeInTheDocument();
    expect(fakePool.user('carol@example.com')?.attributes.preferred_username).toBe('carol_films');
    expect(fakeApi.calls).toContain('POST users/available-username');
  });

  it('shows a loader on "Save handle" while the handle is checked', async () => {
    server.use(
      http.post(`${API}/users/available-username`, async () => {
        await delay(300);
        return HttpResponse.json({ data: { preferred_username: 'slow_one', available: false } });
      }),
    );
    await signedInAs({ username: 'carol@example.com' });
    renderApp('/account');
    await user.type(await screen.findByRole('textbox', { name: 'Handle' }), 'slow_one');
    await user.click(screen.getByRole('button', { name: 'Save handle' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Save handle' })).toHaveAttribute('data-loading', 'true'));
    expect(await screen.findByText('Handle not Available')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Save handle' })).not.toHaveAttribute('data-loading'));
  });

  it('deletes the account only after DELETE is typed, then signs out to /', async () => {
    await signedInAs(alice);
    const { router } = renderApp('/account');
    const section = await screen.findByRole('region', { name: 'Delete account' });
    const button = within(section).getByRole('button', { name: 'Delete my account' });
    expect(button).toBeDisabled();
    await user.type(within(section).getByRole('textbox', { name: 'Type DELETE to confirm' }), 'delete');
    expect(button).toBeDisabled();
    await user.clear(within(section).getByRole('textbox', { name: 'Type DELETE to confirm' }));
    await user.type(within(section).getByRole('textbox', { name: 'Type DELETE to confirm' }), 'DELETE');
    expect(button).toBeEnabled();
    await user.click(button);
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(fakeApi.calls).toContain('DELETE users');
    expect(await screen.findByRole('link', { name: 'Sign in' })).toBeInTheDocument();
    // Issue 17: an account-level event raises the top banner (SPEC §2.9 item 5).
    const notice = await screen.findByText('Your account and everything in it have been deleted.');
    expect(notice.closest('[role="status"]')).toHaveTextContent('Success');
  });

  it('signs out to /', async () => {
    await signedInAs(alice);
    const { router } = renderApp('/account');
    await user.click(await screen.findByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(await screen.findByRole('link', { name: 'Sign in' })).toBeInTheDocument();
  });

  it('does not offer a handle or deletion to the shared guest account', async () => {
    await signedInAs({ username: 'guest', password: 'guest-password', attributes: { preferred_username: 'guest' } });
    renderApp('/account');
    expect(await screen.findByText(/guest account is shared/)).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Handle' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete my account' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign out' })).toBeInTheDocument();
  });
});
