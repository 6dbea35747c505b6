import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { LatestScreen } from '@/screens/content/latest-screen';
import { buildContent, fakeContent, resetFakeContent } from '../../msw/content';
import { API } from '../../msw/handlers';
import { server } from '../../msw/server';
import { render, screen, userEvent, within } from '../../test-utils';

const user = userEvent.setup();
const SLOW = { timeout: 5_000 } as const;

beforeEach(() => resetFakeContent());

describe('the Latest page', () => {
  it('shows everyone’s public items with their owner’s profile link, and loads more pages', async () => {
    fakeContent.pageSize = 2;
    fakeContent.contents = [
      buildContent({ title: 'First', owner: { id: 'sub-ada', preferred_username: 'ada' } }),
      buildContent({ title: 'Second', owner: { id: 'sub-bob', preferred_username: 'bob' } }),
      buildContent({ title: 'Third', owner: { id: 'sub-cy', preferred_username: 'cy' } }),
      buildContent({ title: 'Hidden', visibility: 'unlisted' }),
    ];
    render(<LatestScreen />, { route: '/latest' });
    expect(screen.getByRole('heading', { level: 1, name: 'Latest' })).toBeInTheDocument();
    const second = await screen.findByRole('article', { name: 'Second' }, SLOW);
    expect(within(second).getByRole('link', { name: '@bob' })).toHaveAttribute('href', '/@bob');
    expect(screen.queryByRole('article', { name: 'Third' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Load more' }));
    const third = await screen.findByRole('article', { name: 'Third' });
    expect(within(third).getByRole('link', { name: '@cy' })).toHaveAttribute('href', '/@cy');
    expect(screen.getAllByRole('article').map((article) => article.getAttribute('aria-label'))).toEqual(['First', 'Second', 'Third']);
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
    expect(screen.queryByText('Hidden')).not.toBeInTheDocument();
    expect(fakeContent.listings.map((listing) => listing.next_start_keys)).toEqual([null, '2']);
  });

  it('says "Nothing shared yet." when there is nothing', async () => {
    render(<LatestScreen />, { route: '/latest' });
    expect(await screen.findByText('Nothing shared yet.', undefined, SLOW)).toBeInTheDocument();
  });

  it('shows the server’s message when the listing fails, and "Try again" loads it', async () => {
    fakeContent.contents = [buildContent({ title: 'Back again' })];
    server.use(
      http.post(`${API}/users/latest-contents`, () => HttpResponse.json({ detail: 'The listing is resting.' }, { status: 503 }), { once: true }),
    );
    render(<LatestScreen />, { route: '/latest' });
    const alert = await screen.findByRole('alert', undefined, SLOW);
    expect(alert).toHaveTextContent('The shared results could not be loaded.');
    expect(alert).toHaveTextContent('The listing is resting.');
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('article', { name: 'Back again' })).toBeInTheDocument();
  });
});
