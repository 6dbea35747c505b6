import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { AppConfigActorContext } from '@/components/app-config/app-config-context';
import { defaultAppConfiguration } from '@/config/app-config';
import { selectIsUsingDefaultAppConfig } from '@/machines/app-config/app-config.selectors';
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
  /** Shows, beside the screen, whether the appConfig actor has fallen back to its defaults. */
  function UsingDefaultsProbe() {
    const usingDefaults = AppConfigActorContext.useSelector(selectIsUsingDefaultAppConfig);
    return <output aria-label="Using the built-in configuration">{usingDefaults ? 'yes' : 'no'}</output>;
  }

  const serverConfiguration = () => {
    const configuration = structuredClone(defaultAppConfiguration);
    configuration.tier_information[0]!.label = 'Starter tier from the server';
    return configuration;
  };

  it('shows the credits of every tier from the app configuration the server sends', async () => {
    server.use(http.get(`${API}/frontend-configurations`, () => HttpResponse.json({ data: serverConfiguration() })));

    render(<HomeScreen />);
    // The table is its own chunk (below the fold), so it arrives a moment after the page.
    const table = await screen.findByRole('table', { name: 'Credits per generation' });
    const row = await within(table).findByRole('row', { name: /Starter tier from the server/ });
    expect(within(row).getAllByRole('cell').map((cell) => cell.textContent)).toEqual(['20', '4', '4']);
    expect(within(table).getAllByRole('row')).toHaveLength(1 + 7);
  });

  it.each([
    ['the server fails', () => HttpResponse.json({ detail: 'down' }, { status: 503 })],
    [
      'the answer is malformed',
      // The tier label would show if any of this answer were used; the bad tier id rejects it all.
      () => {
        const configuration = serverConfiguration();
        (configuration.tier_information[1] as { id: string }).id = 'tier-99';
        return HttpResponse.json({ data: configuration });
      },
    ],
  ])('falls back to the built-in tiers when %s', async (_case, answer) => {
    server.use(http.get(`${API}/frontend-configurations`, answer));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});

    render(
      <>
        <HomeScreen />
        <UsingDefaultsProbe />
      </>,
    );
    const probe = screen.getByRole('status', { name: 'Using the built-in configuration' });
    expect(probe).toHaveTextContent('no');
    await waitFor(() => expect(probe).toHaveTextContent('yes'));

    expect(warn).toHaveBeenCalledTimes(1);
    // The table is its own chunk (below the fold), so it arrives a moment after the page.
    const table = await screen.findByRole('table', { name: 'Credits per generation' });
    expect(within(table).queryByText('Starter tier from the server')).not.toBeInTheDocument();
    const openTier = within(table).getByRole('row', { name: /Open Tier/ });
    expect(within(openTier).getAllByRole('cell').map((cell) => cell.textContent)).toEqual(['400', '80', '80']);
    expect(within(table).getAllByRole('row')).toHaveLength(1 + defaultAppConfiguration.tier_information.length);
    warn.mockRestore();
  });
});
