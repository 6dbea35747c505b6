import { beforeEach, describe, expect, it } from 'vitest';
import { ProfileScreen } from '@/screens/profile/profile-screen';
import { addUser, buildContent, fakeContent, resetFakeContent } from '../../msw/content';
import { render, screen, userEvent, waitFor, within } from '../../test-utils';
import { signedInAs } from '../session-helpers';

const user = userEvent.setup();
const ada = { id: 'sub-ada', preferred_username: 'ada' };
const SLOW = { timeout: 5_000 } as const;

beforeEach(() => resetFakeContent());

describe('the public profile', () => {
  it('lists a person’s shared items signed out: video, picture and audio players, each linking to its page', async () => {
    addUser(ada);
    addUser({ id: 'sub-bob', preferred_username: 'bob' });
    fakeContent.contents = [
      buildContent({ id: 'v1', kind: 'video', title: 'Harbour at dusk', url: 'http://localhost/f/v1.mp4', thumbnail_url: 'http://localhost/f/v1.jpg' }),
      buildContent({ id: 'i1', kind: 'image', title: 'A red fox' }),
      buildContent({ id: 'a1', kind: 'audio', title: 'Rain on tin', url: 'http://localhost/f/a1.wav', thumbnail_url: null }),
      buildContent({ id: 'b1', title: 'Bob’s picture', owner: { id: 'sub-bob', preferred_username: 'bob' } }),
    ];

    render(<ProfileScreen handle="ada" />, { route: '/@ada' });
    expect(screen.getByRole('heading', { level: 1, name: '@ada' })).toBeInTheDocument();
    const video = await screen.findByLabelText('Harbour at dusk', { selector: 'video' }, SLOW);
    expect(video).toHaveAttribute('controls');
    expect(video).toHaveAttribute('preload', 'metadata');
    expect(video).toHaveAttribute('poster', 'http://localhost/f/v1.jpg');
    expect(screen.getByRole('img', { name: 'A red fox' })).toBeInTheDocument();
    expect(screen.getByLabelText('Rain on tin', { selector: 'audio' })).toHaveAttribute('controls');
    expect(screen.queryByText('Bob’s picture')).not.toBeInTheDocument();

    const fox = screen.getByRole('article', { name: 'A red fox' });
    expect(within(fox).getByRole('link', { name: 'A red fox' })).toHaveAttribute('href', '/shared/i1');
    expect(within(fox).getByText(/^Shared /)).toBeInTheDocument();
    // The profile is the owner's: no owner link on each item.
    expect(within(fox).queryByRole('link', { name: '@ada' })).not.toBeInTheDocument();
    // Signed out: the listing was asked for without user auth, by the person's id.
    expect(fakeContent.listings).toEqual([{ path: 'users/sub-ada/contents', keyword: '', next_start_keys: null, signedIn: false }]);
  });

  it('searches the person’s items by keyword once typing pauses, and says when nothing matches', async () => {
    addUser(ada);
    fakeContent.contents = [
      buildContent({ title: 'A red fox', description: 'In the snow' }),
      buildContent({ title: 'Lighthouse' }),
    ];
    render(<ProfileScreen handle="ada" />, { route: '/@ada' });
    expect(await screen.findByRole('article', { name: 'Lighthouse' }, SLOW)).toBeInTheDocument();

    await user.type(screen.getByRole('searchbox', { name: 'Search' }), 'snow');
    await waitFor(() => expect(screen.queryByRole('article', { name: 'Lighthouse' })).not.toBeInTheDocument());
    expect(await screen.findByRole('article', { name: 'A red fox' })).toBeInTheDocument();
    // One search for the whole word typed, not one per keystroke.
    expect(fakeContent.listings.map((listing) => listing.keyword)).toEqual(['', 'snow']);

    await user.clear(screen.getByRole('searchbox', { name: 'Search' }));
    await user.type(screen.getByRole('searchbox', { name: 'Search' }), 'zebra');
    expect(await screen.findByText('No results for "zebra".')).toBeInTheDocument();
  });

  it('says so when the person shared nothing yet', async () => {
    addUser(ada);
    render(<ProfileScreen handle="ada" />, { route: '/@ada' });
    expect(await screen.findByText('Nothing shared yet.', undefined, SLOW)).toBeInTheDocument();
    // Issue 17: with a next step, not only the empty words.
    expect(screen.getByText('When @ada shares something, it shows here.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'See the latest' })).toHaveAttribute('href', '/latest');
  });

  it('shows its owner how to fill an empty profile: make something, then Share it', async () => {
    addUser(ada);
    await signedInAs({ username: 'ada@example.com', attributes: { preferred_username: 'ada' } });
    render(<ProfileScreen handle="ada" />, { route: '/@ada' });
    expect(
      await screen.findByText('Make a picture or a video with one of the tools, then choose Share on its result: it shows here.', undefined, SLOW),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Make something' })).toHaveAttribute('href', '/ai-image/text-to-image');
  });

  it('says "This profile does not exist." for an unknown handle and lists nothing', async () => {
    render(<ProfileScreen handle="nobody" />, { route: '/@nobody' });
    expect(await screen.findByText('This profile does not exist.', undefined, SLOW)).toBeInTheDocument();
    expect(screen.queryByRole('searchbox', { name: 'Search' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'See the latest' })).toHaveAttribute('href', '/latest');
    expect(fakeContent.listings).toEqual([]);
  });
});
