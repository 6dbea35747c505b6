import { describe, expect, it } from 'vitest';
import { fakeApi } from '../msw/handlers';
import { setMobileViewport } from '../media-query';
import { alice, signedInAs } from '../screens/session-helpers';
import { renderApp, screen, waitFor, within } from '../test-utils';

/**
 * Issue 17 item 7: the phone header fits 320 px (tests/e2e/responsive.pw.ts measures it in a
 * browser); here, what it is made of: the account button's round initial beside the name the
 * wider layouts show, and the balance whose word "credits" phones hide visually but still read.
 */
describe('header on a phone', () => {
  it('shows the account as its initial and keeps "credits" in the balance text', async () => {
    setMobileViewport();
    fakeApi.credits = 1250;
    await signedInAs(alice);
    renderApp('/ai-image/');
    const header = screen.getByRole('banner');
    // The skeleton carries the same label until the balance arrives.
    await waitFor(() => expect(within(header).getByLabelText('Credit balance')).toHaveTextContent('1250 credits'), { timeout: 10_000 });
    const balance = within(header).getByLabelText('Credit balance');
    // The word sits in its own element, the one the phone layout hides visually (never display: none).
    const unit = within(balance).getByText('credits');
    expect(unit).not.toBe(balance);
    expect(unit).toBeVisible();

    const account = within(header).getByRole('button', { name: 'Account menu' });
    const initial = within(account).getByText('A');
    expect(initial.closest('[aria-hidden="true"]')).not.toBeNull();
    expect(account).toHaveTextContent('alice');
  });
});
