import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { notifications } from '@mantine/notifications';
import { MOBILE_MEDIA_QUERY, theme } from '@/app/theme';
import toastClasses from '@/app/toasts.module.css';
import { HEADER_HEIGHT_PX, TOAST_TOP_OFFSET_PX } from '@/config/limits';
import { MENU } from '@/config/menu';
import { matchesMediaQuery, setMobileViewport, setViewportWidth } from '../media-query';
import { renderApp, screen, userEvent, waitFor, within } from '../test-utils';

describe('shell', () => {
  it('shows the header with the Kinora logo linking home, the menu and the main area', async () => {
    renderApp('/');
    const header = screen.getByRole('banner');
    expect(within(header).getByRole('link', { name: 'Kinora' })).toHaveAttribute('href', '/');
    expect(screen.getByRole('navigation', { name: 'Main menu' })).toBeInTheDocument();
    expect(screen.getByRole('main')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { level: 1, name: 'Kinora' })).toBeInTheDocument();
  });

  it('lists every menu group and link of SPEC §2.3 with its path, in order, then the pages SPEC does not list', async () => {
    renderApp('/');
    const menu = screen.getByRole('navigation', { name: 'Main menu' });
    // The groups are folded on the home page (issue 17): unfold each.
    for (const group of MENU) await userEvent.click(within(menu).getByRole('button', { name: `${group.label} tools` }));
    // Below the SPEC §2.3 menu, a "More" part links Latest, Contact us and the support e-mail.
    const more = within(menu).getByRole('region', { name: 'More' });
    const links = within(menu).getAllByRole('link').filter((link) => !more.contains(link));
    expect(within(more).getAllByRole('link').map((link) => link.textContent)).toEqual([
      'Latest from creators',
      'Contact us',
      'support@kinora.app',
    ]);
    const expected = MENU.flatMap((group) => [group, ...group.items, ...group.extras]).map(({ label, path }) => ({ label, path }));
    expect(links.map((link) => ({ label: link.textContent, path: link.getAttribute('href') }))).toEqual(expected);
    // A sample checked against SPEC itself, not only against the config module.
    expect(within(menu).getByRole('link', { name: 'Sound Effects' })).toHaveAttribute('href', '/ai-audio/text-to-audio');
    expect(within(menu).getByRole('link', { name: 'Restyle Video' })).toHaveAttribute('href', '/ai-video/modify-video');
    expect(within(menu).getByRole('link', { name: 'LoRA Finetune' })).toHaveAttribute('href', '/ai-production/finetune');
    expect(within(menu).getByRole('link', { name: 'AI Image' })).toHaveAttribute('href', '/ai-image/');
    expect(links).toHaveLength(4 + 3 + 8 + 8 + 2 + 1 + 2 + 3);
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
    await userEvent.click(within(menu).getByRole('button', { name: 'AI Video tools' }));
    await userEvent.click(within(menu).getByRole('link', { name: 'Lip Sync' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Lip Sync' }, { timeout: 10_000 })).toBeInTheDocument();
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

  it('shows toasts below the header, so they never cover its Jobs button or account menu', async () => {
    renderApp('/');
    // jsdom gets no CSS from the build: the module's rule is added here under its built class name.
    const style = document.createElement('style');
    const toastCss = readFileSync(join(process.cwd(), 'src/app/toasts.module.css'), 'utf8');
    style.textContent = toastCss.replaceAll('.toasts', `.${toastClasses.toasts}`);
    document.head.append(style);
    notifications.show({ message: 'Your picture is ready' });
    const toast = await screen.findByText('Your picture is ready', {}, { timeout: 10_000 });
    const container = toast.closest<HTMLElement>('.mantine-Notifications-root');
    expect(container).toHaveAttribute('data-position', 'top-right');
    expect(container?.style.getPropertyValue('--toast-top')).toBe(`${TOAST_TOP_OFFSET_PX}px`);
    expect(TOAST_TOP_OFFSET_PX).toBeGreaterThan(HEADER_HEIGHT_PX);
    expect(getComputedStyle(container as HTMLElement).top).toBe('var(--toast-top)');
    // The bottom containers keep Mantine's placement: a `top` there would stretch them over the page.
    const bottom = document.querySelector<HTMLElement>('.mantine-Notifications-root[data-position="bottom-right"]');
    expect(bottom).toHaveClass(toastClasses.toasts as string);
    expect(getComputedStyle(bottom as HTMLElement).top).not.toBe('var(--toast-top)');
    notifications.clean();
    style.remove();
  });

  it('keeps the menu in reach on a desktop-wide screen', () => {
    renderApp('/');
    expect(screen.getByRole('navigation', { name: 'Main menu' })).not.toHaveAttribute('inert');
  });
});

describe('shell on a small screen', () => {
  it('keeps the folded menu out of reach, opens it with focus inside and folds it with Escape', async () => {
    setMobileViewport();
    renderApp('/');
    const burger = screen.getByRole('button', { name: 'Open menu' });
    // Folded: the menu is off-screen and `inert`, so neither Tab nor a screen reader reaches it.
    const menu = screen.getByRole('navigation', { hidden: true, name: 'Main menu' });
    await waitFor(() => expect(menu).toHaveAttribute('inert'));

    await userEvent.click(burger);
    expect(burger).toHaveAttribute('aria-expanded', 'true');
    expect(menu).not.toHaveAttribute('inert');
    expect(within(menu).getByRole('link', { name: 'AI Audio' })).toHaveFocus();

    await userEvent.keyboard('{Escape}');
    expect(screen.getByRole('button', { name: 'Open menu' })).toHaveAttribute('aria-expanded', 'false');
    expect(menu).toHaveAttribute('inert');
    expect(burger).toHaveFocus();
  });

  it('folds the menu when the user follows one of its links', async () => {
    setMobileViewport();
    renderApp('/');
    await userEvent.click(screen.getByRole('button', { name: 'Open menu' }));
    const menu = screen.getByRole('navigation', { name: 'Main menu' });
    await userEvent.click(within(menu).getByRole('button', { name: 'AI Video tools' }));
    await userEvent.click(within(menu).getByRole('link', { name: 'Lip Sync' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Lip Sync' }, { timeout: 10_000 })).toBeInTheDocument();
    expect(menu).toHaveAttribute('inert');
  });

  it('unfolds the menu when the window grows past the mobile breakpoint', async () => {
    setMobileViewport();
    renderApp('/');
    const menu = screen.getByRole('navigation', { hidden: true, name: 'Main menu' });
    await waitFor(() => expect(menu).toHaveAttribute('inert'));
    setViewportWidth(1024);
    await waitFor(() => expect(menu).not.toHaveAttribute('inert'));
  });

  it('switches layout exactly at 768 px (SPEC §2.11), where Mantine\'s `sm` breakpoint starts', () => {
    expect(MOBILE_MEDIA_QUERY).toBe('(max-width: 47.99em)');
    expect(matchesMediaQuery(MOBILE_MEDIA_QUERY, 767)).toBe(true);
    expect(matchesMediaQuery(MOBILE_MEDIA_QUERY, 768)).toBe(false);
    expect(theme.breakpoints).toMatchObject({ sm: '48em', md: '64em' });
  });
});

describe('page changes', () => {
  it.each([
    ['/', 'Kinora'],
    ['/ai-image/text-to-image', 'Text to Image · Kinora'],
    ['/ai-production/', 'AI Production · Kinora'],
    ['/authentication', 'Sign in · Kinora'],
    ['/use-cases/branding', 'Branding · Kinora'],
    ['/@alice', '@alice · Kinora'],
    ['/no/such/page', 'Page not found · Kinora'],
  ])('names the page %s "%s" in the document title', async (path, title) => {
    renderApp(path);
    await waitFor(() => expect(document.title).toBe(title));
  });

  it('updates the title on navigation', async () => {
    const { router } = renderApp('/ai-video/lip-sync');
    await waitFor(() => expect(document.title).toBe('Lip Sync · Kinora'));
    await router.navigate('/');
    await waitFor(() => expect(document.title).toBe('Kinora'));
  });

  it('leaves focus alone on the first load and moves it to the new page heading after a navigation', async () => {
    renderApp('/');
    await screen.findByRole('heading', { level: 1, name: 'Kinora' });
    expect(document.body).toHaveFocus();

    const menu = screen.getByRole('navigation', { name: 'Main menu' });
    await userEvent.click(within(menu).getByRole('button', { name: 'AI Video tools' }));
    await userEvent.click(within(menu).getByRole('link', { name: 'Lip Sync' }));
    const heading = await screen.findByRole('heading', { level: 1, name: 'Lip Sync' });
    await waitFor(() => expect(heading).toHaveFocus());
  });
});
