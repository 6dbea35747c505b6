import { beforeEach, describe, expect, it, vi } from 'vitest';
import { leaveApp } from '@/app/leave-app';
import { fakePool } from '../msw/cognito';
import { fakeApi } from '../msw/handlers';
import { cleanup, renderApp, screen, userEvent, waitFor, within } from '../test-utils';
import { alice, signedInAs } from './session-helpers';

// jsdom cannot leave the page; the allowlisted redirect is checked through this one function.
vi.mock('@/app/leave-app', () => ({ leaveApp: vi.fn() }));

const user = userEvent.setup();

beforeEach(() => {
  vi.mocked(leaveApp).mockClear();
});

describe('coupon modal (SPEC §2.9 item 3)', () => {
  it('redeems the coupon of the URL once signed in and shows the credits', async () => {
    fakeApi.coupons.set('WELCOME50', 50);
    await signedInAs(alice);
    renderApp('/?coupon_code=WELCOME50');
    const modal = await screen.findByRole('dialog', { name: 'Congratulations!' });
    expect(within(modal).getByText('You got 50 credits from this coupon. Please check your credits.')).toBeInTheDocument();
    await user.click(within(modal).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Congratulations!' })).not.toBeInTheDocument());
    await waitFor(() => expect(screen.getByLabelText('Credit balance')).toHaveTextContent('150 credits'));
  });

  it('keeps a coupon seen while signed out and redeems it after sign-in', async () => {
    fakeApi.coupons.set('KINORA100', 100);
    fakePool.addUser(alice);
    renderApp('/authentication?coupon_code=KINORA100');
    await user.type(await screen.findByRole('textbox', { name: 'E-mail' }), 'alice@example.com');
    await user.type(screen.getByLabelText('Password'), 'correct-password');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    const modal = await screen.findByRole('dialog', { name: 'Congratulations!' });
    expect(within(modal).getByText('You got 100 credits from this coupon. Please check your credits.')).toBeInTheDocument();
    expect(fakeApi.calls.filter((call) => call === 'GET coupon/KINORA100')).toHaveLength(1);
  });

  it('says nothing when the coupon cannot be redeemed', async () => {
    await signedInAs(alice);
    renderApp('/?coupon_code=NOPE');
    await waitFor(() => expect(fakeApi.calls).toContain('GET coupon/NOPE'));
    await screen.findByRole('button', { name: 'Account menu' });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});

describe('redirect after sign-in (SPEC §4)', () => {
  it('refuses a redirect_uri that is not on the allowlist, names it, and keeps the user signed in', async () => {
    await signedInAs(alice);
    renderApp('/?redirect_uri=https%3A%2F%2Fevil.example%2Fcallback&state=xyz');
    const modal = await screen.findByRole('dialog', { name: 'Sign-in not sent' }, { timeout: 3000 });
    expect(within(modal).getByText('https://evil.example/callback')).toBeInTheDocument();
    await user.click(within(modal).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Sign-in not sent' })).not.toBeInTheDocument());
    expect(screen.getByRole('button', { name: 'Account menu' })).toBeInTheDocument();
    expect(leaveApp).not.toHaveBeenCalled();
  });

  it('sends the browser to an allowlisted redirect_uri with the code and the state', async () => {
    await signedInAs(alice);
    renderApp('/?redirect_uri=https%3A%2F%2Fpartner.example%2Foauth%2Fcallback&state=abc');
    await waitFor(() => expect(leaveApp).toHaveBeenCalledTimes(1));
    const target = new URL(vi.mocked(leaveApp).mock.calls[0]?.[0] ?? '');
    expect(`${target.origin}${target.pathname}`).toBe('https://partner.example/oauth/callback');
    expect(target.searchParams.get('state')).toBe('abc');
    expect(target.searchParams.get('code')).toBeTruthy();
  });
});

describe('Verify Email modal (SPEC §2.9 item 1)', () => {
  const unverified = { username: 'dora@example.com', attributes: { email_verified: 'false', preferred_username: 'dora' } };

  async function openModal() {
    await signedInAs(unverified);
    renderApp('/ai-image/');
    return screen.findByRole('dialog', { name: 'Verify Email' }, { timeout: 3000 });
  }

  it('asks for the code with the texts of SPEC §2.9', async () => {
    const modal = await openModal();
    expect(within(modal).getByText('Please confirm your email address')).toBeInTheDocument();
    expect(within(modal).getByRole('textbox', { name: 'Confirmation code' })).toHaveAttribute(
      'placeholder',
      'Please input email confirmation code.',
    );
    for (const name of ['Resend', 'Verify', 'Cancel']) {
      expect(within(modal).getByRole('button', { name })).toBeInTheDocument();
    }
  });

  it('sends no code on opening, and says how to get one', async () => {
    const modal = await openModal();
    expect(within(modal).getByText('No code yet? Press Resend and we send one to d***@e***.com.')).toBeInTheDocument();
    expect(fakePool.calls).not.toContain('GetUserAttributeVerificationCode');
    await user.click(within(modal).getByRole('button', { name: 'Resend' }));
    expect(await within(modal).findByText(/^We sent the code to .+\.$/)).toBeInTheDocument();
    expect(within(modal).queryByText(/No code yet/)).not.toBeInTheDocument();
  });

  it('waits behind a session modal: one dialog at a time, the session modal first', async () => {
    fakeApi.coupons.set('WELCOME50', 50);
    await signedInAs(unverified);
    renderApp('/ai-image/?coupon_code=WELCOME50');
    const coupon = await screen.findByRole('dialog', { name: 'Congratulations!' });
    expect(screen.getAllByRole('dialog')).toHaveLength(1);
    expect(screen.queryByRole('dialog', { name: 'Verify Email' })).not.toBeInTheDocument();
    await user.click(within(coupon).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByRole('dialog', { name: 'Verify Email' }, { timeout: 3000 })).toBeInTheDocument();
    await waitFor(() => expect(screen.getAllByRole('dialog')).toHaveLength(1));
  });

  it('is not shown to a user whose e-mail is verified', async () => {
    await signedInAs(alice);
    renderApp('/ai-image/');
    await screen.findByRole('button', { name: 'Account menu' });
    await waitFor(() => expect(fakePool.calls).toContain('GetUser'));
    expect(screen.queryByRole('dialog', { name: 'Verify Email' })).not.toBeInTheDocument();
  });

  it('sends a new code on Resend', async () => {
    const modal = await openModal();
    await user.click(within(modal).getByRole('button', { name: 'Resend' }));
    await waitFor(() => expect(fakePool.calls).toContain('GetUserAttributeVerificationCode'));
  });

  it('refuses an empty code without asking the pool', async () => {
    const modal = await openModal();
    await user.click(within(modal).getByRole('button', { name: 'Verify' }));
    expect(await within(modal).findByText('Enter the code from the e-mail.')).toBeInTheDocument();
    expect(fakePool.calls).not.toContain('VerifyUserAttribute');
  });

  it('says "Invalid Code" with the server message for a wrong code, and stays open', async () => {
    const modal = await openModal();
    await user.type(within(modal).getByRole('textbox', { name: 'Confirmation code' }), '000000');
    await user.click(within(modal).getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Invalid Code')).toBeInTheDocument();
    expect(screen.getByText('Invalid verification code provided, please try again.')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Verify Email' })).toBeInTheDocument();
  });

  it('says "Verified" / "Thank you for verifying your email." and closes for the right code', async () => {
    const modal = await openModal();
    await user.type(within(modal).getByRole('textbox', { name: 'Confirmation code' }), fakePool.code);
    await user.click(within(modal).getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Verified')).toBeInTheDocument();
    expect(screen.getByText('Thank you for verifying your email.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Verify Email' })).not.toBeInTheDocument());
    expect(fakePool.user('dora@example.com')?.attributes.email_verified).toBe('true');
  });

  it('closes on Cancel', async () => {
    const modal = await openModal();
    await user.click(within(modal).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Verify Email' })).not.toBeInTheDocument());
  });

  it('comes once per sign-in: after Cancel a reload does not show it, and the account menu opens it again', async () => {
    const modal = await openModal();
    await user.click(within(modal).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Verify Email' })).not.toBeInTheDocument());
    cleanup();

    // A full page load with the same sign-in.
    renderApp('/ai-image/');
    await user.click(await screen.findByRole('button', { name: 'Account menu' }, { timeout: 3000 }));
    const later = await screen.findByRole('menuitem', { name: 'Verify email' });
    expect(screen.queryByRole('dialog', { name: 'Verify Email' })).not.toBeInTheDocument();
    await user.click(later);
    expect(await screen.findByRole('dialog', { name: 'Verify Email' })).toBeInTheDocument();
  });

  it('closes with the Escape key, and focus starts inside it', async () => {
    const modal = await openModal();
    await waitFor(() => expect(within(modal).getByRole('textbox', { name: 'Confirmation code' })).toHaveFocus());
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Verify Email' })).not.toBeInTheDocument());
  });
});
