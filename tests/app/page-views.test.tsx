import { describe, expect, it } from 'vitest';
import { disabledTelemetry, type Telemetry } from '@/services/telemetry';
import { renderApp, screen, userEvent, waitFor, within } from '../test-utils';

function recordingTelemetry(): { telemetry: Telemetry; views: string[] } {
  const views: string[] = [];
  return { views, telemetry: { ...disabledTelemetry, analytics: { pageView: (path) => views.push(path) } } };
}

describe('page views', () => {
  it('tracks the first page and every navigation by path', async () => {
    const { telemetry, views } = recordingTelemetry();
    renderApp('/', { telemetry });
    await waitFor(() => expect(views).toEqual(['/']));

    const menu = screen.getByRole('navigation', { name: 'Main menu' });
    // The menu's groups are folded on the home page (issue 17).
    await userEvent.click(within(menu).getByRole('button', { name: 'AI Audio tools' }));
    await userEvent.click(within(menu).getByRole('link', { name: 'Text to Music' }));
    await screen.findByRole('heading', { level: 1, name: 'Text to Music' }, { timeout: 10_000 });
    await userEvent.click(within(menu).getByRole('link', { name: 'AI Production' }));
    await screen.findByRole('heading', { level: 1, name: 'AI Production' }, { timeout: 10_000 });

    expect(views).toEqual(['/', '/ai-audio/text-to-music', '/ai-production/']);
  });

  it('tracks the not-found page, not the unknown path that led there', async () => {
    const { telemetry, views } = recordingTelemetry();
    renderApp('/nowhere', { telemetry });
    await screen.findByRole('heading', { level: 1, name: 'Page not found' });
    // The view is recorded by the router's effect after the redirect, which can come after the
    // heading is drawn on a busy machine.
    await waitFor(() => expect(views).toEqual(['/404']));
  });
});
