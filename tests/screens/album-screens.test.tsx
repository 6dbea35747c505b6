import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MESSAGES } from '@/config/messages';
import { fakeApi } from '../msw/handlers';
import { addAlbum, batchHandlers, fakeBatch, resetFakeBatch, writtenBoard } from '../msw/batch';
import { fakeMedia } from '../msw/media';
import { server } from '../msw/server';
import { renderApp, screen, userEvent, waitFor, within } from '../test-utils';
import { PAGE_LOAD, pngFile, setUpJobTests } from './generation-helpers';
import { alice, signedInAs } from './session-helpers';

const user = userEvent.setup();
/** In a paying group: SPEC §6 compares the cost with the balance (a person in no group is never refused). */
const carol = { username: 'carol@example.com', groups: ['Creators'], attributes: { preferred_username: 'carol' } };

setUpJobTests();

beforeEach(() => {
  resetFakeBatch();
  server.use(...batchHandlers());
});
afterEach(() => resetFakeBatch());

const SLOW = { timeout: 10_000 } as const;
const balance = () => within(screen.getByRole('banner')).getByLabelText('Credit balance');
const clip = (number: number) => screen.getByRole('region', { name: `Clip ${number}` });
const generate = () => screen.getByRole('button', { name: 'Generate videos' });
const requestsTo = (call: string) => fakeBatch.requests.filter((request) => request.call === call);

async function pick(combobox: HTMLElement, option: RegExp | string) {
  await user.click(combobox);
  await user.click(await screen.findByRole('option', { name: option }));
}

describe('the albums page', () => {
  it('asks a signed-out visitor to sign in', async () => {
    renderApp('/ai-video/albums');
    expect(await screen.findByRole('heading', { level: 1, name: 'Albums' }, PAGE_LOAD)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign in to see your albums' })).toHaveAttribute('href', '/authentication');
    expect(within(screen.getByRole('main')).getByRole('link', { name: 'AI Video' })).toHaveAttribute('href', '/ai-video/');
  });

  it('lists the albums newest first with their type, pictures and a link', async () => {
    addAlbum({ title: 'Old trip', batch_type: 'ai', image_urls: ['a'] });
    addAlbum({ title: 'Skyline', batch_type: 'parallax' });
    await signedInAs(alice);
    renderApp('/ai-video/albums');
    const table = await screen.findByRole('table', {}, PAGE_LOAD);
    const [, newest, oldest] = within(table).getAllByRole('row');
    expect(newest).toHaveTextContent(/Skyline.*Parallax batch.*2 pictures/);
    expect(oldest).toHaveTextContent(/Old trip.*AI batch.*1 picture/);
    expect(within(newest!).getByRole('link', { name: 'Skyline' })).toHaveAttribute('href', '/ai-video/albums/album-2');
  });

  it('says when there are no albums, and refuses a form without a title or a picture', async () => {
    await signedInAs(alice);
    renderApp('/ai-video/albums');
    expect(await screen.findByText('No albums yet. Create one below from your pictures.', {}, PAGE_LOAD)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Create album' }));
    expect(await screen.findByText('Give the album a title')).toBeInTheDocument();
    expect(screen.getByText('Add 1 to 12 pictures.')).toBeInTheDocument();
    expect(requestsTo('POST batch')).toEqual([]);
  });

  it('creates a parallax album from uploaded pictures and opens it', async () => {
    await signedInAs(alice);
    const { router } = renderApp('/ai-video/albums');
    const form = await screen.findByRole('form', { name: 'New album' }, PAGE_LOAD);
    await user.type(within(form).getByRole('textbox', { name: 'Title' }), 'City lights');
    await user.click(within(form).getByRole('radio', { name: 'Parallax batch' }));
    expect(within(form).getByRole('button', { name: 'Help: Parallax Batch' })).toBeInTheDocument();
    expect(within(form).getByRole('button', { name: 'Help: AI Batch' })).toBeInTheDocument();
    await user.upload(within(form).getByLabelText(/^Picture 1/, { selector: 'input[type="file"]' }), pngFile('one.png'));
    await within(form).findByRole('img', { name: 'Picture 1: one.png' });
    await user.click(within(form).getByRole('button', { name: 'Add another picture' }));
    await user.upload(within(form).getByLabelText(/^Picture 2/, { selector: 'input[type="file"]' }), pngFile('two.png'));
    await within(form).findByRole('img', { name: 'Picture 2: two.png' });
    expect(within(form).getByText('2 pictures of 12')).toBeInTheDocument();
    await user.click(within(form).getByRole('button', { name: 'Create album' }));

    expect(await screen.findByRole('heading', { level: 1, name: 'City lights' }, PAGE_LOAD)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/ai-video/albums/album-1');
    const uploads = [...fakeMedia.media.values()].filter((media) => media.tool === 'upload-image').map((media) => media.items[0]?.url);
    expect(requestsTo('POST batch')[0]?.fields).toEqual({ title: ['City lights'], batch_type: ['parallax'], image_urls: uploads });
    expect(screen.getByText('Parallax batch · 2 pictures')).toBeInTheDocument();
  });
});

describe('an album', () => {
  it('links back to the albums and says when an album does not exist', async () => {
    await signedInAs(alice);
    renderApp('/ai-video/albums/nope');
    expect(await screen.findByText('This album does not exist, or it is not yours.', {}, PAGE_LOAD)).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: /Albums|All albums/ })[0]).toHaveAttribute('href', '/ai-video/albums');
  });

  it('writes a script board, lets each clip be changed and moved, then generates and plays the videos', async () => {
    const album = addAlbum({ title: 'Holiday', batch_type: 'ai' });
    await signedInAs(carol);
    renderApp(`/ai-video/albums/${album.id}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Holiday' }, PAGE_LOAD)).toBeInTheDocument();
    // The page's own link back (the menu, with AI Video unfolded, has one too).
    expect(within(screen.getByRole('main')).getByRole('link', { name: 'Albums' })).toHaveAttribute('href', '/ai-video/albums');
    expect(screen.getByRole('img', { name: 'Picture 2' })).toHaveAttribute('src', album.image_urls[1]);
    expect(generate()).toBeDisabled();
    expect(screen.getByText('Write a script board first.')).toBeInTheDocument();
    // Nothing to price before there is a board.
    expect(screen.queryByRole('region', { name: 'This album' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Write script board' }));
    expect(await screen.findByRole('region', { name: 'Clip 2' })).toBeInTheDocument();
    // The written board is priced: both clips at the default model's price, the join free.
    expect(await screen.findByText('2 clips (Auto) 80 · joining free = 80 credits')).toBeInTheDocument();
    expect(within(clip(1)).getByRole('textbox', { name: 'Prompt' })).toHaveValue('Picture 1 described');
    expect(within(clip(1)).getByRole('combobox', { name: 'Camera motion' })).toHaveValue('Crane up');
    await waitFor(() => expect(balance()).toHaveTextContent('100 credits'));
    expect(screen.getByText('2 clips · 80 credits · you have 100')).toBeInTheDocument();

    // A dearer model for the second clip: the total follows and is more than the balance.
    await pick(within(clip(2)).getByRole('combobox', { name: 'Motion model' }), /^Kling 2 · 160 credits$/);
    expect(screen.getByText('2 clips · 200 credits · you have 100')).toBeInTheDocument();
    expect(generate()).toBeDisabled();
    expect(screen.getByText('Not enough credits: this costs 200 credits and you have 100.')).toBeInTheDocument();
    await pick(within(clip(2)).getByRole('combobox', { name: 'Motion model' }), /^Pico Motion · 20 credits$/);
    expect(screen.getByText('2 clips · 60 credits · you have 100')).toBeInTheDocument();

    const prompt = within(clip(2)).getByRole('textbox', { name: 'Prompt' });
    await user.clear(prompt);
    await user.type(prompt, 'waves at dusk');
    // Moved up with the keyboard; focus stays on the clip's button.
    within(clip(2)).getByRole('button', { name: 'Move clip 2 up' }).focus();
    await user.keyboard('{Enter}');
    expect(within(clip(1)).getByRole('textbox', { name: 'Prompt' })).toHaveValue('waves at dusk');
    expect(within(clip(1)).getByRole('button', { name: 'Move clip 1 up' })).toBeDisabled();
    expect(within(clip(1)).getByRole('button', { name: 'Move clip 1 down' })).toHaveFocus();
    expect(screen.getByText('Unsaved changes')).toBeInTheDocument();

    await user.click(generate());
    await waitFor(() => expect(requestsTo(`POST batch/${album.id}/videos`)).toHaveLength(1));
    const sent = requestsTo(`POST batch/${album.id}/videos`)[0]!;
    expect(sent.idempotencyKey).toEqual(expect.any(String));
    const board = JSON.parse(sent.fields.script_board![0]!) as { clips: { id: string; prompt: string; model: string }[] };
    expect(board.clips.map((sentClip) => [sentClip.id, sentClip.prompt, sentClip.model])).toEqual([
      ['clip-2', 'waves at dusk', 'PicoMotion'],
      ['clip-1', 'Picture 1 described', 'Auto'],
    ]);
    // Paid, then the header's balance is fetched again.
    await waitFor(() => expect(balance()).toHaveTextContent('40 credits'), SLOW);

    const videos = screen.getByRole('region', { name: 'Videos' });
    const first = await within(videos).findByRole('article', { name: 'Clip 1 · Crane down' });
    await waitFor(() => expect(first.querySelector('video')).not.toBeNull(), SLOW);
    const video = first.querySelector('video')!;
    expect(video).toHaveAttribute('controls');
    expect(video.getAttribute('src')).toBe(fakeMedia.media.get(fakeBatch.albums.get(album.id)!.video_media_ids[0]!)!.items[0]!.url);
    await waitFor(() => expect(within(videos).getByRole('article', { name: 'Clip 2 · Crane up' }).querySelector('video')).not.toBeNull(), SLOW);
  }, 30_000);

  it('edits a parallax album’s camera paths and lengths', async () => {
    const album = addAlbum({ batch_type: 'parallax' });
    album.script_board = writtenBoard(album);
    await signedInAs(alice);
    renderApp(`/ai-video/albums/${album.id}`);
    await screen.findByRole('region', { name: 'Clip 1' }, PAGE_LOAD);
    expect(within(clip(1)).queryByRole('textbox', { name: 'Prompt' })).not.toBeInTheDocument();
    expect(within(clip(1)).getByRole('combobox', { name: 'Camera path' })).toHaveValue('Horizontal');
    await pick(within(clip(1)).getByRole('combobox', { name: 'Camera path' }), 'StepIn');
    const length = within(clip(1)).getByRole('textbox', { name: 'Length (seconds)' });
    await user.clear(length);
    await user.type(length, '8');
    expect(screen.getByText('2 clips · 40 credits · you have 100')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save script board' }));
    await waitFor(() => expect(screen.getByText('Saved')).toBeInTheDocument());
    const saved = JSON.parse(requestsTo(`PUT batch/${album.id}/edit`)[0]!.fields.script_board![0]!) as {
      clips: { camera_path: string; motion_length: number; motion_type: string }[];
    };
    expect(saved.clips[0]).toMatchObject({ camera_path: 'StepIn', motion_length: 8, motion_type: 'Parallax' });
  });

  it('joins the clips with an uploaded sound and an extra video, then plays and offers the joined video', async () => {
    const album = addAlbum({ title: 'Holiday' });
    album.script_board = writtenBoard(album);
    await signedInAs(alice);
    renderApp(`/ai-video/albums/${album.id}`);
    await screen.findByRole('region', { name: 'Clip 1' }, PAGE_LOAD);
    expect(screen.getByRole('button', { name: 'Join into one video' })).toBeDisabled();
    await user.click(generate());
    const videos = screen.getByRole('region', { name: 'Videos' });
    await waitFor(() => expect(videos.querySelectorAll('video')).toHaveLength(2), SLOW);

    await user.upload(screen.getByLabelText(/^Audio/, { selector: 'input[type="file"]' }), new File([new Uint8Array([0x49, 0x44, 0x33])], 'song.mp3', { type: 'audio/mpeg' }));
    expect(await screen.findByRole('button', { name: 'Remove audio' })).toBeInTheDocument();
    await user.upload(
      screen.getByLabelText(/^Add a video/, { selector: 'input[type="file"]' }),
      new File([new Uint8Array([0, 0, 0, 0x18])], 'outro.mp4', { type: 'video/mp4' }),
    );
    const extras = await screen.findByRole('list', { name: 'Extra videos' });
    expect(within(extras).getAllByRole('listitem')).toHaveLength(1);

    await user.click(screen.getByRole('button', { name: 'Join into one video' }));
    const download = await screen.findByRole('link', { name: 'Download the joined video' }, SLOW);
    const joined = screen.getByRole('article', { name: 'Joined video' });
    expect(joined.querySelector('video')).toHaveAttribute('src', download.getAttribute('href'));

    const edit = requestsTo(`PUT batch/${album.id}/edit`)[0]!;
    const audio = [...fakeMedia.media.values()].find((media) => media.tool === 'upload-audio')!;
    const extra = [...fakeMedia.media.values()].find((media) => media.tool === 'upload-video')!;
    const clipUrls = fakeBatch.albums.get(album.id)!.video_media_ids.map((id) => fakeMedia.media.get(id)!.items[0]!.url);
    expect(edit.fields).toEqual({
      audio_urls: [audio.items[0]!.url],
      concat_video_urls: clipUrls,
      additional_videos: [JSON.stringify([{ url: extra.items[0]!.url, label: extra.args.filename }])],
      concat: ['true'],
    });
  }, 30_000);

  it('asks before deleting, then goes back to the albums', async () => {
    const album = addAlbum({ title: 'Doomed' });
    await signedInAs(alice);
    const { router } = renderApp(`/ai-video/albums/${album.id}`);
    await user.click(await screen.findByRole('button', { name: 'Delete album' }, PAGE_LOAD));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this album?' });
    await user.click(within(dialog).getByRole('button', { name: 'Keep it' }));
    expect(requestsTo(`DELETE batch/${album.id}`)).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Delete album' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/ai-video/albums'));
    expect(fakeBatch.albums.has(album.id)).toBe(false);
    expect(await screen.findByText('No albums yet. Create one below from your pictures.', {}, PAGE_LOAD)).toBeInTheDocument();
  });

  it('shows SPEC §8’s danger toast when the delete fails, and stays', async () => {
    const album = addAlbum({ title: 'Sticky' });
    fakeBatch.failDelete = 500;
    await signedInAs(alice);
    const { router } = renderApp(`/ai-video/albums/${album.id}`);
    await user.click(await screen.findByRole('button', { name: 'Delete album' }, PAGE_LOAD));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText(MESSAGES.batchNotFound.title)).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.batchNotFound.message)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(`/ai-video/albums/${album.id}`);
    expect(screen.getByRole('heading', { level: 1, name: 'Sticky' })).toBeInTheDocument();
  });

  it('keeps Generate disabled with the reason when the balance is short', async () => {
    fakeApi.credits = 30;
    const album = addAlbum();
    album.script_board = writtenBoard(album);
    await signedInAs(carol);
    renderApp(`/ai-video/albums/${album.id}`);
    await waitFor(() => expect(screen.getByText('Not enough credits: this costs 80 credits and you have 30.')).toBeInTheDocument(), PAGE_LOAD);
    expect(generate()).toBeDisabled();
  });

  it('quotes the whole album, holds it in one click (the header drops by it), pays the clips from the hold, and the join ends the hold', async () => {
    const album = addAlbum({ title: 'Coast', batch_type: 'parallax' });
    album.script_board = writtenBoard(album);
    await signedInAs(carol);
    renderApp(`/ai-video/albums/${album.id}`);
    const panel = await screen.findByRole('region', { name: 'This album' }, PAGE_LOAD);
    expect(await within(panel).findByText('2 clips (Parallax) 40 · joining free = 40 credits')).toBeInTheDocument();
    await waitFor(() => expect(balance()).toHaveTextContent('100 credits'));
    expect(within(panel).getByText(/^Holding sets the whole price aside now, so the album is never left half-made/)).toBeInTheDocument();

    await user.click(within(panel).getByRole('button', { name: 'Hold 40 credits and start' }));
    expect(await within(panel).findByText('40 credits held for this album (0 spent from the hold so far). Its clips are paid from the hold.')).toBeInTheDocument();
    await waitFor(() => expect(balance()).toHaveTextContent('60 credits'));
    expect(requestsTo(`POST batch/${album.id}/hold`)[0]?.idempotencyKey).toEqual(expect.any(String));
    expect(screen.getByText('2 clips · 40 credits · from the hold (40 left)')).toBeInTheDocument();

    // The clips are paid from the hold: the header stays where the hold put it.
    await user.click(generate());
    const videos = screen.getByRole('region', { name: 'Videos' });
    await waitFor(() => expect(videos.querySelectorAll('video')).toHaveLength(2), SLOW);
    expect(await within(panel).findByText('0 credits held for this album (40 spent from the hold so far). Its clips are paid from the hold.', {}, SLOW)).toBeInTheDocument();
    expect(within(panel).getByText('Nothing left to pay for: every clip of this album is made, and joining is free.')).toBeInTheDocument();
    expect(balance()).toHaveTextContent('60 credits');

    // Joined: the album has ended, and so has its hold.
    await user.click(screen.getByRole('button', { name: 'Join into one video' }));
    await screen.findByRole('link', { name: 'Download the joined video' }, SLOW);
    await waitFor(() => expect(within(panel).queryByText(/held for this album/)).not.toBeInTheDocument(), SLOW);
    expect(within(panel).queryByRole('button', { name: 'Release' })).not.toBeInTheDocument();
    expect(fakeBatch.holds.has(album.id)).toBe(false);
    expect(balance()).toHaveTextContent('60 credits');
  }, 30_000);

  it('releases an album’s hold: its credits are back in the header', async () => {
    const album = addAlbum({ batch_type: 'parallax' });
    album.script_board = writtenBoard(album);
    await signedInAs(carol);
    renderApp(`/ai-video/albums/${album.id}`);
    const panel = await screen.findByRole('region', { name: 'This album' }, PAGE_LOAD);
    await user.click(await within(panel).findByRole('button', { name: 'Hold 40 credits and start' }));
    await waitFor(() => expect(balance()).toHaveTextContent('60 credits'));
    await user.click(within(panel).getByRole('button', { name: 'Release' }));
    expect(await within(panel).findByText('The hold was released: its credits are back in your balance.')).toBeInTheDocument();
    await waitFor(() => expect(balance()).toHaveTextContent('100 credits'));
    expect(within(panel).getByRole('button', { name: 'Hold 40 credits and start' })).toBeInTheDocument();
    expect(screen.getByText('2 clips · 40 credits · you have 100')).toBeInTheDocument();
  });
});
