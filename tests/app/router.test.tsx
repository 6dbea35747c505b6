import { describe, expect, it, vi } from 'vitest';
import { renderApp, screen, userEvent, waitFor, within } from '../test-utils';

const notFoundHeading = { level: 1, name: 'Page not found' } as const;

describe('routes', () => {
  it('sends an unknown path to the not-found page at /404', async () => {
    const { router } = renderApp('/no/such/page');
    expect(await screen.findByRole('heading', notFoundHeading)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/404');
  });

  it('treats a one-segment path without "@" as unknown', async () => {
    const { router } = renderApp('/alice');
    expect(await screen.findByRole('heading', notFoundHeading)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/404');
    expect(screen.queryByText(/alice/)).not.toBeInTheDocument();
  });

  it('treats a bare "/@" as unknown', async () => {
    const { router } = renderApp('/@');
    expect(await screen.findByRole('heading', notFoundHeading)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/404');
  });

  it('treats a profile path with a malformed percent-encoding as unknown instead of crashing', async () => {
    // React Router warns that it cannot decode the path; the page shown is what this test checks.
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { router } = renderApp('/@%E0%A4%A');
    expect(await screen.findByRole('heading', notFoundHeading)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/404');
    expect(screen.queryByText('Oops, there is an error!')).not.toBeInTheDocument();
    warn.mockRestore();
  });

  it('shows the public profile at /@handle', async () => {
    const { router } = renderApp('/@alice');
    expect(await screen.findByRole('heading', { level: 1, name: '@alice' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/@alice');
  });

  it('serves the shell routes of SPEC §2.1', async () => {
    const { router } = renderApp('/authentication');
    expect(await screen.findByRole('heading', { level: 1, name: 'Sign in' })).toBeInTheDocument();
    await router.navigate('/account');
    expect(await screen.findByRole('heading', { level: 1, name: 'Account' })).toBeInTheDocument();
    await router.navigate('/');
    expect(await screen.findByRole('heading', { level: 1, name: 'Kinora' })).toBeInTheDocument();
  });

  it('opens AI Story on its wizard with its title and its group', async () => {
    renderApp('/ai-production/ai-story');
    expect(await screen.findByRole('heading', { level: 1, name: 'AI Story' })).toBeInTheDocument();
    expect(screen.getByRole('main')).not.toHaveTextContent('Coming soon');
    expect(screen.getAllByRole('link', { name: 'AI Production' }).map((link) => link.getAttribute('href'))).toEqual([
      '/ai-production/',
      '/ai-production/',
    ]);
  });

  it.each([
    ['/ai-audio/text-to-speech', 'Text to Speech'],
    ['/ai-image/reimagine', 'Reimagine'],
    ['/ai-image/restyle', 'Restyle Image'],
    ['/ai-video/lip-sync', 'Lip Sync'],
    ['/ai-video/edit-video', 'Edit Video'],
    ['/ai-video/ai-motion', 'AI Motion'],
    ['/ai-video/try-on', 'Try On Video'],
    ['/ai-production/finetune', 'LoRA Finetune'],
  ])('serves the generation tool page %s', async (path, title) => {
    renderApp(path);
    expect(await screen.findByRole('heading', { level: 1, name: title })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Generate' })).toBeInTheDocument();
    expect(screen.getByRole('main')).not.toHaveTextContent('Coming soon');
  });

  it.each([
    ['/ai-image/', 'Upload Image', '/ai-image/upload-image'],
    ['/ai-audio/', 'Upload Audio', '/ai-audio/upload-audio'],
    ['/ai-video/', 'Upload Video', '/ai-video/upload-video'],
    ['/ai-video/', 'Albums', '/ai-video/albums'],
  ])('links the upload page from the group page %s', async (path, label, target) => {
    const { router } = renderApp(path);
    // The group page's own link (the menu lists every tool page too since issue 17).
    await userEvent.click(await within(await screen.findByRole('main')).findByRole('link', { name: label }));
    expect(await screen.findByRole('heading', { level: 1, name: label })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(target);
  });

  it('serves the parallax motion page of SPEC §2.4, which has no menu link', async () => {
    renderApp('/ai-video/parallax-motion');
    expect(await screen.findByRole('heading', { level: 1, name: 'Parallax Motion' })).toBeInTheDocument();
  });

  it('shows a group index listing its tools at the group path', async () => {
    renderApp('/ai-production/');
    expect(await screen.findByRole('heading', { level: 1, name: 'AI Production' })).toBeInTheDocument();
    const list = screen.getByRole('list', { name: 'AI Production tools' });
    expect(list).toHaveTextContent('AI Story');
    expect(list).toHaveTextContent('LoRA Finetune');
  });

  it.each([
    ['/use-cases/branding', 'Branding'],
    ['/use-cases/ecommerce', 'E-commerce'],
    ['/use-cases/photography', 'Photography'],
    ['/use-cases/restaurants', 'Restaurants'],
  ])('serves the use-case page %s', async (path, title) => {
    const { router } = renderApp(path);
    expect(await screen.findByRole('heading', { level: 1, name: title })).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe(path));
  });
});
