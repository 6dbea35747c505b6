import { describe, expect, it } from 'vitest';
import { fakeMedia } from '../msw/media';
import { renderApp, screen, userEvent, waitFor, within } from '../test-utils';
import { fileOfSize, PAGE_LOAD, pngFile } from './generation-helpers';
import { alice, signedInAs } from './session-helpers';

const user = userEvent.setup();

const uploads = () => screen.getByRole('region', { name: 'Your uploads' });

describe('the upload pages', () => {
  it('asks a signed-out visitor to sign in', async () => {
    renderApp('/ai-image/upload-image');
    expect(await screen.findByRole('heading', { level: 1, name: 'Upload Image' }, PAGE_LOAD)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign in to upload' })).toHaveAttribute('href', '/authentication');
  });

  it('uploads a picture and lists it with the earlier uploads', async () => {
    await signedInAs(alice);
    renderApp('/ai-image/upload-image');
    expect(await within(await screen.findByRole('region', { name: 'Your uploads' }, PAGE_LOAD)).findByText('Nothing uploaded yet.')).toBeInTheDocument();
    await user.upload(screen.getByLabelText(/^Picture/, { selector: 'input[type="file"]' }), pngFile('beach.png'));
    expect(await screen.findByRole('img', { name: 'Picture: beach.png' })).toBeInTheDocument();
    await waitFor(() => expect(within(uploads()).getAllByRole('article')).toHaveLength(1));
    const uploaded = [...fakeMedia.media.values()].find((media) => media.tool === 'upload-image');
    const listed = within(uploads()).getByRole('article').querySelector('img');
    expect(listed).toHaveAttribute('src', uploaded?.items[0]?.url);
    expect(fakeMedia.calls).toContain('GET media');
  });

  it('uploads a video on the Upload Video page, plays it and offers to extend or edit it', async () => {
    await signedInAs(alice);
    renderApp('/ai-video/upload-video');
    expect(await screen.findByRole('heading', { level: 1, name: 'Upload Video' }, PAGE_LOAD)).toBeInTheDocument();
    expect(await within(await screen.findByRole('region', { name: 'Your uploads' }, PAGE_LOAD)).findByText('Nothing uploaded yet.')).toBeInTheDocument();
    const input = screen.getByLabelText(/^Video file/, { selector: 'input[type="file"]' });
    expect(input).toHaveAttribute('accept', expect.stringContaining('.mp4'));
    await user.upload(input, new File([new Uint8Array([0, 0, 0, 0x18])], 'surf.mp4', { type: 'video/mp4' }));
    expect(await screen.findByLabelText('Video file: surf.mp4')).toBeInTheDocument();
    await waitFor(() => expect(within(uploads()).getAllByRole('article')).toHaveLength(1));
    const uploaded = [...fakeMedia.media.values()].find((media) => media.tool === 'upload-video');
    const card = within(uploads()).getByRole('article');
    expect(card.querySelector('video')).toHaveAttribute('src', uploaded?.items[0]?.url);
    expect(fakeMedia.calls).toContain('POST video');
    const name = uploaded?.args.filename as string;
    expect(within(card).getByRole('link', { name: `Download MP4 ${name}` })).toHaveAttribute('href', uploaded?.items[0]?.url);
    expect(within(card).getByRole('link', { name: `Extend ${name}` })).toHaveAttribute('href', `/ai-video/ai-motion?extend=${uploaded?.id}&item=0`);
    expect(within(card).getByRole('link', { name: `Edit ${name}` })).toHaveAttribute('href', `/ai-video/edit-video?video=${uploaded?.id}&item=0`);
  });

  it('refuses a file of the wrong type for audio before sending it', async () => {
    await signedInAs(alice);
    renderApp('/ai-audio/upload-audio');
    const input = await screen.findByLabelText(/^Audio file/, { selector: 'input[type="file"]' }, PAGE_LOAD);
    expect(input).toHaveAttribute('accept', expect.stringContaining('.mp3'));
    // The file picker's accept list would hide it; a drop or a permissive picker can still hand it over.
    await userEvent.setup({ applyAccept: false }).upload(input, fileOfSize('notes.txt', 'text/plain', 10));
    expect(await screen.findByText(/"notes.txt" is not an accepted audio file/)).toBeInTheDocument();
    expect(fakeMedia.calls).not.toContain('POST audio');
  });
});
