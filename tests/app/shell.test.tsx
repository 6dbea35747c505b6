import { describe, expect, it } from 'vitest';
import { MENU } from '@/config/menu';
import { renderApp, screen, userEvent, within } from '../test-utils';

describe('shell', () => {
  it('shows the header with the Kinora logo linking home, the menu and the main area', async () => {
    renderApp('/');
    const header = screen.getByRole('banner');
    expect(within(header).getByRole('link', { name: 'Kinora' })).toHaveAttribute('href', '/');
    expect(screen.getByRole('navigation', { name: 'Main menu' })).toBeInTheDocument();
    expect(screen.getByRole('main')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { level: 1, name: 'Kinora' })).toBeInTheDocument();
  });

  it('lists every menu group and link of SPEC §2.3 with its path, in order', () => {
    renderApp('/');
    const menu = screen.getByRole('navigation', { name: 'Main menu' });
    const links = within(menu).getAllByRole('link');
    const expected = MENU.flatMap((group) => [group, ...group.items]).map(({ label, path }) => ({ label, path }));
    expect(links.map((link) => ({ label: link.textContent, path: link.getAttribute('href') }))).toEqual(expected);
    // A sample checked against SPEC itself, not only against the config module.
    expect(within(menu).getByRole('link', { name: 'Sound Effects' })).toHaveAttribute('href', '/ai-audio/text-to-audio');
    expect(within(menu).getByRole('link', { name: 'Restyle Video' })).toHaveAttribute('href', '/ai-video/modify-video');
    expect(within(menu).getByRole('link', { name: 'LoRA Finetune' })).toHaveAttribute('href', '/ai-production/finetune');
    expect(within(menu).getByRole('link', { name: 'AI Image' })).toHaveAttribute('href', '/ai-image/');
    expect(links).toHaveLength(4 + 3 + 8 + 8 + 2);
  });

  it('marks the link of the current page', () => {
    renderApp('/ai-image/face-swap');
    const menu = screen.getByRole('navigation', { name: 'Main menu' });
    expect(within(menu).getByRole('link', { name: 'Face Swap' })).toHaveAttribute('aria-current', 'page');
    expect(within(menu).getByRole('link', { name: 'AI Image' })).not.toHaveAttribute('aria-current');
  });

  it('opens a tool page from the menu', async () => {
    const { router } = renderApp('/');
    const menu = screen.getByRole('navigation', { name: 'Main menu' });
    await userEvent.click(within(menu).getByRole('link', { name: 'Lip Sync' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Lip Sync' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/ai-video/lip-sync');
  });

  it('has a burger that opens and closes the menu on small screens', async () => {
    renderApp('/');
    const burger = screen.getByRole('button', { name: 'Open menu' });
    expect(burger).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(burger);
    expect(screen.getByRole('button', { name: 'Close menu' })).toHaveAttribute('aria-expanded', 'true');
  });

  it('offers a skip link to the main content for keyboard users', async () => {
    renderApp('/');
    await userEvent.tab();
    const skip = screen.getByRole('link', { name: 'Skip to content' });
    expect(skip).toHaveFocus();
    expect(skip).toHaveAttribute('href', '#main-content');
    expect(screen.getByRole('main')).toHaveAttribute('id', 'main-content');
  });
});
