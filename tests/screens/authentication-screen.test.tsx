import { describe, expect, it } from 'vitest';
import { AuthenticationScreen } from '@/screens/authentication/authentication-screen';
import { fakePool } from '../msw/cognito';
import { render, renderApp, screen, userEvent, waitFor, within } from '../test-utils';
import { alice, signedInAs } from './session-helpers';

const user = userEvent.setup();

async function fillSignIn(email: string, password: string) {
  await user.type(await screen.findByRole('textbox', { name: 'E-mail' }), email);
  await user.type(screen.getByLabelText('Password'), password);
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
}

const balance = () => screen.findByLabelText('Credit balance', {}, { timeout: 3000 });

describe('/authentication: signing in', () => {
  it('signs in with e-mail and password and lands on the profile, with the balance in the header', async () => {
    fakePool.addUser(alice);
    const { router } = renderApp('/authentication');
    expect(await screen.findByRole('heading', { level: 1, name: 'Sign in' })).toBeInTheDocument();
    await fillSignIn('alice@example.com', 'correct-password');
    await waitFor(() => expect(router.state.location.pathname).toBe('/@alice'));
    expect(await screen.findByRole('heading', { level: 1, name: '@alice' })).toBeInTheDocument();
    await waitFor(async () => expect(await balance()).toHaveTextContent('100 credits'));
  });

  it('says so when the password is wrong, and stays on the form', async () => {
    fakePool.addUser(alice);
    const { router } = renderApp('/authentication');
    await fillSignIn('alice@example.com', 'wrong-password');
    expect(await screen.findByRole('alert')).toHaveTextContent('Incorrect username or password.');
    expect(router.state.location.pathname).toBe('/authentication');
    expect(screen.getByRole('heading', { level: 1, name: 'Sign in' })).toBeInTheDocument();
  });

  it('disables the button and shows a loader while the sign-in runs', async () => {
    fakePool.addUser(alice);
    const { router } = renderApp('/authentication');
    // The emulator answers once the test has looked (a 300 ms latency ended first on a busy machine).
    const release = fakePool.hold();
    await fillSignIn('alice@example.com', 'correct-password');
    const button = screen.getByRole('button', { name: 'Sign in' });
    await waitFor(() => expect(button).toBeDisabled());
    expect(button).toHaveAttribute('data-loading', 'true');
    expect(screen.getByRole('button', { name: 'Continue as guest' })).toBeDisabled();
    // Let the sign-in finish, so that its session does not outlive this test.
    release();
    await waitFor(() => expect(router.state.location.pathname).toBe('/@alice'), { timeout: 5000 });
  });

  it('shows the page loader, not the form, while the signed-in user loads', async () => {
    fakePool.addUser(alice);
    const { router } = renderApp('/authentication');
    await user.type(await screen.findByRole('textbox', { name: 'E-mail' }), 'alice@example.com');
    await user.type(screen.getByLabelText('Password'), 'correct-password');
    fakePool.latencyMs = 300;
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(fakePool.calls).toContain('GetUser'));
    expect(await screen.findByLabelText('Loading page')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/authentication');
    expect(screen.queryByRole('textbox', { name: 'E-mail' })).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { level: 1, name: 'Sign in' })).not.toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/@alice'), { timeout: 5000 });
  });

  it('refuses an empty form without asking the pool', async () => {
    renderApp('/authentication');
    await user.click(await screen.findByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Enter your e-mail address.')).toBeInTheDocument();
    expect(screen.getByText('Enter your password.')).toBeInTheDocument();
    expect(fakePool.calls).not.toContain('InitiateAuth');
  });

  it('offers guest sign-in, social sign-in (disabled, saying why), sign-up and a forgotten password', async () => {
    renderApp('/authentication');
    expect(await screen.findByRole('button', { name: 'Continue as guest' })).toBeEnabled();
    for (const provider of ['Google', 'Facebook', 'Apple']) {
      expect(screen.getByRole('button', { name: `Continue with ${provider}` })).toBeDisabled();
    }
    expect(screen.getByText(/not set up on this server/i)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create an account' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Forgot password?' })).toBeInTheDocument();
  });

  it('enables the social buttons the pool has', async () => {
    renderApp('/authentication', { session: { socialProviders: ['Google'] } });
    expect(await screen.findByRole('button', { name: 'Continue with Google' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Continue with Apple' })).toBeDisabled();
    expect(screen.getByText(/not set up on this server: Facebook, Apple/i)).toBeInTheDocument();
  });

  it('disables "Continue as guest" with the reason when no guest password is configured', async () => {
    renderApp('/authentication', { session: { guestPassword: undefined } });
    expect(await screen.findByRole('button', { name: 'Continue as guest' })).toBeDisabled();
    expect(screen.getByText('Guest sign-in: not set up on this server.')).toBeInTheDocument();
  });

  it('signs in as the guest and shows the guest welcome modal with every point of SPEC §2.9', async () => {
    fakePool.addUser({ username: 'guest', password: 'guest-password', attributes: { preferred_username: 'guest' } });
    renderApp('/authentication');
    await user.click(await screen.findByRole('button', { name: 'Continue as guest' }));
    const modal = await screen.findByRole('dialog', { name: 'Welcome our dear guest!' }, { timeout: 3000 });
    for (const text of [/visible to other guests/, /deleted every week/, /carry the Kinora logo/, /not for heavy orders/, /without the logo/]) {
      expect(within(modal).getByText(text)).toBeInTheDocument();
    }
    await user.click(within(modal).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Welcome our dear guest!' })).not.toBeInTheDocument());
  });
});

describe('/authentication: creating an account', () => {
  it('signs up, confirms the e-mailed code, then signs in and is sent to choose a handle', async () => {
    const { router } = renderApp('/authentication');
    await user.click(await screen.findByRole('button', { name: 'Create an account' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Create an account' })).toBeInTheDocument();

    await user.type(screen.getByRole('textbox', { name: 'E-mail' }), 'new@example.com');
    await user.type(screen.getByLabelText('Password'), 'short');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('Use at least 6 characters.')).toBeInTheDocument();
    expect(fakePool.calls).not.toContain('SignUp');

    // No character classes: six lower-case letters are enough.
    await user.clear(screen.getByLabelText('Password'));
    await user.type(screen.getByLabelText('Password'), 'simple');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Confirm your e-mail' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('We sent a code to n***@e***');

    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('Enter the code.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Send a new code' }));
    await waitFor(() => expect(fakePool.calls).toContain('ResendConfirmationCode'));

    await user.type(screen.getByRole('textbox', { name: 'Confirmation code' }), '000000');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid verification code provided');

    await user.clear(screen.getByRole('textbox', { name: 'Confirmation code' }));
    await user.type(screen.getByRole('textbox', { name: 'Confirmation code' }), fakePool.code);
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(fakePool.user('new@example.com')?.confirmed).toBe(true));

    // Either the session signs the new user straight in, or it shows the sign-in form again.
    const signInHeading = await screen.findByRole('heading', { level: 1, name: /Sign in|Account/ });
    if (signInHeading.textContent === 'Sign in' && router.state.location.pathname === '/authentication') {
      const email = screen.getByRole('textbox', { name: 'E-mail' });
      await user.clear(email);
      await fillSignIn('new@example.com', 'simple');
    }
    await waitFor(() => expect(router.state.location.pathname).toBe('/account'));
    expect(await screen.findByRole('textbox', { name: 'Handle' })).toHaveValue('');
  });

  it('says so when the e-mail is already registered', async () => {
    fakePool.addUser(alice);
    renderApp('/authentication');
    await user.click(await screen.findByRole('button', { name: 'Create an account' }));
    await user.type(await screen.findByRole('textbox', { name: 'E-mail' }), 'alice@example.com');
    await user.type(screen.getByLabelText('Password'), 'another-password');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('User already exists');
  });
});

describe('/authentication: a forgotten password', () => {
  it('sends a code, sets the new password, and signs in with it', async () => {
    fakePool.addUser(alice);
    const { router } = renderApp('/authentication');
    await user.click(await screen.findByRole('button', { name: 'Forgot password?' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Reset your password' })).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: 'E-mail' }), 'alice@example.com');
    await user.click(screen.getByRole('button', { name: 'Send code' }));

    const code = await screen.findByRole('textbox', { name: 'Code' });
    await user.type(screen.getByLabelText('New password'), '123');
    await user.click(screen.getByRole('button', { name: 'Set new password' }));
    expect(await screen.findByText('Enter the code.')).toBeInTheDocument();
    expect(screen.getByText('Use at least 6 characters.')).toBeInTheDocument();

    await user.type(code, fakePool.code);
    await user.clear(screen.getByLabelText('New password'));
    await user.type(screen.getByLabelText('New password'), 'brand-new');
    await user.click(screen.getByRole('button', { name: 'Set new password' }));
    await waitFor(() => expect(fakePool.user('alice@example.com')?.password).toBe('brand-new'));

    expect(await screen.findByRole('heading', { level: 1, name: 'Sign in' })).toBeInTheDocument();
    const email = screen.getByRole('textbox', { name: 'E-mail' });
    await user.clear(email);
    await fillSignIn('alice@example.com', 'brand-new');
    await waitFor(() => expect(router.state.location.pathname).toBe('/@alice'));
  });
});

describe('/authentication: the extra steps the pool may ask for', () => {
  it('asks for the SMS code, refuses a wrong one, and signs in with the right one', async () => {
    fakePool.addUser({ ...alice, mfa: 'SMS' });
    const { router } = renderApp('/authentication');
    await fillSignIn('alice@example.com', 'correct-password');
    expect(await screen.findByRole('heading', { level: 1, name: 'Enter your sign-in code' })).toBeInTheDocument();
    expect(screen.getByText(/sent to \+\*+1234/)).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Enter the code.')).toBeInTheDocument();

    await user.type(screen.getByRole('textbox', { name: 'Code' }), '999999');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/Invalid/);

    await user.clear(screen.getByRole('textbox', { name: 'Code' }));
    await user.type(screen.getByRole('textbox', { name: 'Code' }), fakePool.code);
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/@alice'));
  });

  it('disables Cancel while the code is being checked', async () => {
    fakePool.addUser({ ...alice, mfa: 'SMS' });
    renderApp('/authentication');
    await fillSignIn('alice@example.com', 'correct-password');
    await user.type(await screen.findByRole('textbox', { name: 'Code' }), '999999');
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeEnabled();
    fakePool.latencyMs = 300;
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Cancel' })).toBeDisabled());
    expect(await screen.findByRole('alert')).toHaveTextContent(/Invalid/);
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeEnabled();
  });

  it('disables Cancel on the method choice while the choice is being sent', async () => {
    fakePool.addUser({ ...alice, mfa: 'SELECT' });
    renderApp('/authentication');
    await fillSignIn('alice@example.com', 'correct-password');
    const sms = await screen.findByRole('button', { name: 'Text message (SMS)' });
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeEnabled();
    fakePool.latencyMs = 300;
    await user.click(sms);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Cancel' })).toBeDisabled());
    expect(await screen.findByRole('heading', { level: 1, name: 'Enter your sign-in code' })).toBeInTheDocument();
  });

  it('asks for the authenticator-app code (TOTP)', async () => {
    fakePool.addUser({ ...alice, mfa: 'TOTP' });
    const { router } = renderApp('/authentication');
    await fillSignIn('alice@example.com', 'correct-password');
    expect(await screen.findByRole('heading', { level: 1, name: 'Enter your sign-in code' })).toBeInTheDocument();
    expect(screen.getByText(/authenticator app/i)).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: 'Code' }), fakePool.code);
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/@alice'));
  });

  it('lets the person choose SMS or an authenticator app, then asks for that code', async () => {
    fakePool.addUser({ ...alice, mfa: 'SELECT' });
    const { router } = renderApp('/authentication');
    await fillSignIn('alice@example.com', 'correct-password');
    expect(await screen.findByRole('button', { name: 'Text message (SMS)' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Authenticator app (TOTP)' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Enter your sign-in code' })).toBeInTheDocument();
    expect(screen.getByText(/authenticator app/i)).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: 'Code' }), fakePool.code);
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/@alice'));
  });

  it('asks for a new password when the pool requires one, with the SPEC §5 rule', async () => {
    fakePool.addUser({ ...alice, mustChangePassword: true });
    const { router } = renderApp('/authentication');
    await fillSignIn('alice@example.com', 'correct-password');
    const newPassword = await screen.findByLabelText('New password');
    await user.type(newPassword, 'abc');
    await user.click(screen.getByRole('button', { name: 'Set password' }));
    expect(await screen.findByText('Use at least 6 characters.')).toBeInTheDocument();
    await user.clear(newPassword);
    await user.type(newPassword, 'my-own-password');
    await user.click(screen.getByRole('button', { name: 'Set password' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/@alice'));
    expect(fakePool.user('alice@example.com')?.password).toBe('my-own-password');
  });

  it('disables Cancel while the new password is being set', async () => {
    fakePool.addUser({ ...alice, mustChangePassword: true });
    renderApp('/authentication');
    await fillSignIn('alice@example.com', 'correct-password');
    await user.type(await screen.findByLabelText('New password'), 'my-own-password');
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeEnabled();
    fakePool.latencyMs = 300;
    await user.click(screen.getByRole('button', { name: 'Set password' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Cancel' })).toBeDisabled());
  });
});

describe('/authentication when already signed in', () => {
  it('says who is signed in and links onward', async () => {
    await signedInAs(alice);
    render(<AuthenticationScreen />, { route: '/authentication' });
    expect(await screen.findByText('You are signed in as @alice.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to your profile' })).toHaveAttribute('href', '/@alice');
  });
});
