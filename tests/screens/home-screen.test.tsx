import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { defaultAppConfiguration } from '@/config/app-config';
import { HomeScreen } from '@/screens/home/home-screen';
import { API } from '../msw/handlers';
import { server } from '../msw/server';
import { render, screen, waitFor, within } from '../test-utils';

describe('home screen', () => {
  it('introduces Kinora and what it does', () => {
    render(<HomeScreen />);
    expect(screen.getByRole('heading', { level: 1, name: 'Kinora' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'What Kinora does' })).toBeInTheDocument();
    expect(screen.getByText(/pay only for what you generate/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/authentication');
  });

  it('links into every tool group', () => {
    render(<HomeScreen />);
    const tools = screen.getByRole('region', { name: 'Tools' });
    const groups = within(tools).getAllByRole('link');
    expect(groups.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['AI Audio', '/ai-audio/'],
      ['AI Image', '/ai-image/'],
      ['AI Video', '/ai-video/'],
      ['AI Production', '/ai-production/'],
    ]);
    expect(within(tools).getByRole('article', { name: 'AI Audio' })).toHaveTextContent('Text to Music');
  });
});

describe('home screen credits table', () => {
  it('shows the credits of every tier from the app configuration the server sends', async () => {
    const configuration = structuredClone(defaultAppConfiguration);
    configuration.tier_information[0]!.label = 'Starter tier from the server';
    server.use(http.get(`${API}/frontend-configurations`, () => HttpResponse.json({ data: configuration })));

    render(<HomeScreen />);
    const table = screen.getByRole('table', { name: 'Credits per generation' });
    const row = await within(table).findByRole('row', { name: /Starter tier from the server/ });
    expect(within(row).getAllByRole('cell').map((cell) => cell.textContent)).toEqual(['20', '4', '4']);
    expect(within(table).getAllByRole('row')).toHaveLength(1 + 7);
  });

  it('falls back to the built-in tiers when the configuration cannot be fetched', async () => {
    server.use(http.get(`${API}/frontend-configurations`, () => HttpResponse.json({ detail: 'down' }, { status: 503 })));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});

    render(<HomeScreen />);
    await waitFor(() => expect(warn).toHaveBeenCalled());
    const table = screen.getByRole('table', { name: 'Credits per generation' });
    const openTier = within(table).getByRole('row', { name: /Open Tier/ });
    expect(within(openTier).getAllByRole('cell').map((cell) => cell.textContent)).toEqual(['400', '80', '80']);
    warn.mockRestore();
  });
});
