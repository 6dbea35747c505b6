import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { SharedScreen } from '@/screens/content/shared-screen';
import { addUser, fakeContent, resetFakeContent } from '../../msw/content';
import { API } from '../../msw/handlers';
import { addMedia } from '../../msw/media';
import { server } from '../../msw/server';
import { render, screen, userEvent, within } from '../../test-utils';
import { alice, signedInAs } from '../session-helpers';

const user = userEvent.setup();
const SLOW = { timeout: 5_000 } as const;

beforeEach(() => resetFakeContent());

const sharedVideo = (visibility: 'public' | 'unlisted' | 'private' = 'public') => {
  const media = addMedia({
    id: 'm-video',
    kind: 'video',
    tool: 'edit-video',
    status: 'success',
    items: [
      {
        type: 'video',
        status: 'success',
        url: 'http://localhost/api/files/m-video.mp4',
        thumbnail_url: 'http://localhost/api/files/m-video.jpg',
        file_id: 'f1',
      },
    ],
  });
  fakeContent.shares.set(media.id, {
    title: 'Harbour at dusk',
    description: 'Boats coming home.',
    visibility,
    shared_at: '2025-03-04T10:00:00.000Z',
  });
  return media;
};

describe('the shared item page', () => {
  it('shows one shared result signed out: title, description, owner link and the player', async () => {
    addUser({ id: 'sub-ada', preferred_username: 'ada' });
    sharedVideo();
    render(<SharedScreen id="m-video" />, { route: '/shared/m-video' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Harbour at dusk' }, SLOW)).toBeInTheDocument();
    expect(screen.getByText('Boats coming home.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '@ada' })).toHaveAttribute('href', '/@ada');
    const video = screen.getByLabelText('Harbour at dusk', { selector: 'video' });
    expect(video).toHaveAttribute('src', 'http://localhost/api/files/m-video.mp4');
    expect(video).toHaveAttribute('poster', 'http://localhost/api/files/m-video.jpg');
    expect(video).toHaveAttribute('controls');
    // Not the owner: no way back to the results.
    expect(screen.queryByRole('link', { name: /You shared this/ })).not.toBeInTheDocument();
  });

  it('gives the owner a link back to the result on its tool page', async () => {
    const alicia = await signedInAs(alice);
    addUser({ id: alicia.sub, preferred_username: 'alice' });
    sharedVideo('unlisted');
    render(<SharedScreen id="m-video" />, { route: '/shared/m-video' });
    const back = await screen.findByRole('link', { name: /You shared this/ }, SLOW);
    expect(back).toHaveAttribute('href', '/ai-video/edit-video?job=m-video');
    expect(screen.getByText('Unlisted: only people with the link can see it.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Your profile' })).toHaveAttribute('href', '/@alice');
  });

  it('says so when the result is not shared (404)', async () => {
    sharedVideo('private');
    render(<SharedScreen id="m-video" />, { route: '/shared/m-video' });
    expect(await screen.findByText('This result does not exist or is no longer shared.', undefined, SLOW)).toBeInTheDocument();
  });

  it('offers a retry when loading fails', async () => {
    addUser({ id: 'sub-ada', preferred_username: 'ada' });
    sharedVideo();
    server.use(http.get(`${API}/media/:id/view`, () => HttpResponse.json({ detail: 'down' }, { status: 503 }), { once: true }));
    render(<SharedScreen id="m-video" />, { route: '/shared/m-video' });
    const alert = await screen.findByRole('alert', undefined, SLOW);
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Harbour at dusk' })).toBeInTheDocument();
  });
});
