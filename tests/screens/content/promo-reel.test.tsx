import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { HomeScreen } from '@/screens/home/home-screen';
import { resetFakeContent } from '../../msw/content';
import { API } from '../../msw/handlers';
import { server } from '../../msw/server';
import { render, screen, userEvent, within } from '../../test-utils';

const user = userEvent.setup();

beforeEach(() => resetFakeContent());

describe('the home page promo reel', () => {
  it('plays the promo videos muted, with controls and their thumbnail as poster, and links to Latest', async () => {
    render(<HomeScreen />);
    // The reel loads after the page (a lazy chunk).
    const reel = await screen.findByRole('region', { name: 'See what people made' });
    const video = await within(reel).findByLabelText('Parallax in a minute', { selector: 'video' });
    expect(video).toHaveAttribute('controls');
    expect((video as HTMLVideoElement).muted).toBe(true);
    expect(video).toHaveAttribute('poster', 'http://localhost/promo/promo-1.jpg');
    expect(video).toHaveAttribute('src', 'http://localhost/api/promo-videos/promo-1/video.mp4');
    expect(within(reel).getByText('A story from one idea')).toBeInTheDocument();
    expect(within(reel).getByRole('link', { name: 'See the latest' })).toHaveAttribute('href', '/latest');
  });

  it('says when the videos could not be loaded and tries again', async () => {
    server.use(http.get(`${API}/promo-videos`, () => HttpResponse.json({ detail: 'down' }, { status: 503 }), { once: true }));
    render(<HomeScreen />);
    // The reel loads after the page (a lazy chunk).
    const reel = await screen.findByRole('region', { name: 'See what people made' });
    expect(await within(reel).findByRole('alert')).toHaveTextContent('The videos could not be loaded.');
    await user.click(within(reel).getByRole('button', { name: 'Try again' }));
    expect(await within(reel).findByLabelText('Parallax in a minute', { selector: 'video' })).toBeInTheDocument();
  });
});
