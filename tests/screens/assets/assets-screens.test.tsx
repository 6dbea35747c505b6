import { afterEach, describe, expect, it } from 'vitest';
import { addAsset, fakeAssets } from '../../msw/assets';
import { addMedia, fakeMedia } from '../../msw/media';
import { server } from '../../msw/server';
import { renderApp, screen, userEvent, waitFor, within } from '../../test-utils';
import { PAGE_LOAD, setUpJobTests } from '../generation-helpers';
import { alice, signedInAs } from '../session-helpers';

const user = userEvent.setup();

setUpJobTests();

const requestsTo = (call: string) => fakeAssets.requests.filter((request) => request.call === call);

const imageResult = (overrides: Parameters<typeof addMedia>[0] = {}) =>
  addMedia({
    kind: 'image',
    tool: 'text-to-image',
    status: 'success_image',
    progress: 100,
    option: 'Seedream',
    args: { prompt: 'a red fox', option: 'Seedream' },
    items: [
      {
        type: 'image',
        status: 'success',
        url: 'http://localhost/api/files/fox.png?signature=ab',
        thumbnail_url: 'http://localhost/api/files/fox-thumb.jpg?signature=ab',
        file_id: 'fox',
      },
    ],
    ...overrides,
  });

const videoResult = (overrides: Parameters<typeof addMedia>[0] = {}) =>
  addMedia({
    kind: 'video',
    tool: 'text-to-video',
    status: 'success',
    progress: 100,
    option: 'Kling',
    args: { prompt: 'waves', option: 'Kling' },
    items: [
      {
        type: 'video',
        status: 'success',
        url: 'http://localhost/api/files/waves.mp4?signature=ab',
        thumbnail_url: null,
        file_id: 'waves',
      },
    ],
    ...overrides,
  });

/** The URLs of the requests sent, to check query parameters (msw's life-cycle events). */
const sentUrls: string[] = [];
server.events.on('request:start', ({ request }) => {
  sentUrls.push(request.url);
});
afterEach(() => {
  sentUrls.length = 0;
});

describe('the assets page', () => {
  it('asks a signed-out visitor to sign in', async () => {
    renderApp('/assets');
    expect(await screen.findByRole('heading', { level: 1, name: 'Assets' }, PAGE_LOAD)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign in to see your assets' })).toHaveAttribute('href', '/authentication');
    expect(requestsTo('GET asset')).toEqual([]);
  });

  it('lists the assets, last changed first, with their count, cover and a link', async () => {
    const beach = addAsset({ name: 'Beach', description: 'Summer shots' });
    addAsset({ name: 'Forest' });
    imageResult({ asset_id: beach.id });
    beach.updated_at = '2025-03-01T00:00:00.000Z';
    await signedInAs(alice);
    renderApp('/assets');
    const first = await screen.findByRole('article', { name: 'Beach' }, PAGE_LOAD);
    const cards = screen.getAllByRole('article');
    expect(cards.map((card) => card.getAttribute('aria-label'))).toEqual(['Beach', 'Forest']);
    expect(within(first).getByText(/1 result/)).toBeInTheDocument();
    expect(within(first).getByRole('img', { name: 'Cover of Beach' })).toHaveAttribute(
      'src',
      'http://localhost/api/files/fox-thumb.jpg?signature=ab',
    );
    expect(within(first).getByRole('link', { name: 'Open Beach' })).toHaveAttribute('href', `/assets/${beach.id}`);
    expect(within(cards[1]!).getByText(/0 results/)).toBeInTheDocument();
  });

  it('says when there are none, refuses a nameless asset, then creates one', async () => {
    await signedInAs(alice);
    renderApp('/assets');
    expect(
      await screen.findByText('No assets yet. Create one below, then choose it under "Save results to asset" on any tool page.', {}, PAGE_LOAD),
    ).toBeInTheDocument();
    const form = screen.getByRole('form', { name: 'New asset' });
    await user.type(within(form).getByRole('textbox', { name: 'Name' }), '   ');
    await user.click(within(form).getByRole('button', { name: 'Create asset' }));
    expect(await within(form).findByText('Give the asset a name.')).toBeInTheDocument();
    expect(requestsTo('POST asset')).toEqual([]);

    await user.clear(within(form).getByRole('textbox', { name: 'Name' }));
    await user.type(within(form).getByRole('textbox', { name: 'Name' }), 'Mountains');
    await user.type(within(form).getByRole('textbox', { name: 'Description' }), 'Alps trip');
    await user.click(within(form).getByRole('button', { name: 'Create asset' }));
    expect(await screen.findByRole('article', { name: 'Mountains' })).toBeInTheDocument();
    expect(requestsTo('POST asset')[0]?.json).toEqual({ name: 'Mountains', description: 'Alps trip', fields: {} });
    expect(screen.getByText('Asset "Mountains" created.')).toBeInTheDocument();
    // The form is empty again for the next one.
    expect(within(form).getByRole('textbox', { name: 'Name' })).toHaveValue('');
  });

  it('shows a failed load with a retry', async () => {
    fakeAssets.failNext.set('GET asset', { status: 500, detail: 'The database is asleep.' });
    addAsset({ name: 'Beach' });
    await signedInAs(alice);
    renderApp('/assets');
    expect(await screen.findByText(/Your assets could not be loaded\. The database is asleep\./, {}, PAGE_LOAD)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('article', { name: 'Beach' })).toBeInTheDocument();
  });
});

describe('one asset', () => {
  it('says when an asset does not exist', async () => {
    await signedInAs(alice);
    renderApp('/assets/nope');
    expect(await screen.findByText('This asset does not exist, or it is not yours.', {}, PAGE_LOAD)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'All assets' })).toHaveAttribute('href', '/assets');
  });

  it('says when there is nothing in it', async () => {
    const asset = addAsset({ name: 'Empty one' });
    await signedInAs(alice);
    renderApp(`/assets/${asset.id}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Empty one' }, PAGE_LOAD)).toBeInTheDocument();
    expect(
      screen.getByText('Nothing in this asset yet. Choose it under "Save results to asset" on any tool page.'),
    ).toBeInTheDocument();
  });

  it('renames and describes it (the whole object is sent), refusing an empty name', async () => {
    const asset = addAsset({ name: 'Beach', description: 'Summer', fields: { mood: 'calm' } });
    await signedInAs(alice);
    renderApp(`/assets/${asset.id}`);
    const form = await screen.findByRole('form', { name: 'Name and description' }, PAGE_LOAD);
    const name = within(form).getByRole('textbox', { name: 'Name' });
    expect(name).toHaveValue('Beach');
    await user.clear(name);
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await within(form).findByText('Give the asset a name.')).toBeInTheDocument();
    expect(requestsTo(`PUT asset/${asset.id}`)).toEqual([]);

    await user.type(name, 'Coast');
    await user.clear(within(form).getByRole('textbox', { name: 'Description' }));
    await user.type(within(form).getByRole('textbox', { name: 'Description' }), 'Autumn walks');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Coast' })).toBeInTheDocument();
    expect(within(form).getByText('Saved.')).toBeInTheDocument();
    expect(requestsTo(`PUT asset/${asset.id}`)[0]?.json).toEqual({ name: 'Coast', description: 'Autumn walks', fields: { mood: 'calm' } });
  });

  it('shows a failed save with a retry that sends it again', async () => {
    const asset = addAsset({ name: 'Beach' });
    fakeAssets.failNext.set(`PUT asset/${asset.id}`, { status: 500, detail: 'Could not save the asset.' });
    await signedInAs(alice);
    renderApp(`/assets/${asset.id}`);
    const form = await screen.findByRole('form', { name: 'Name and description' }, PAGE_LOAD);
    await user.clear(within(form).getByRole('textbox', { name: 'Name' }));
    await user.type(within(form).getByRole('textbox', { name: 'Name' }), 'Coast');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await within(form).findByText('Could not save the asset.')).toBeInTheDocument();
    await user.click(within(form).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Coast' })).toBeInTheDocument();
    expect(requestsTo(`PUT asset/${asset.id}`)).toHaveLength(2);
  });

  it('shows its results with "Use in a tool" links, and removes one from the asset', async () => {
    const asset = addAsset({ name: 'Beach' });
    const picture = imageResult({ asset_id: asset.id });
    const video = videoResult({ asset_id: asset.id });
    await signedInAs(alice);
    renderApp(`/assets/${asset.id}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Beach' }, PAGE_LOAD)).toBeInTheDocument();
    const section = screen.getByRole('region', { name: 'Results in this asset' });
    expect(within(section).getByRole('img', { name: /a red fox/ })).toBeInTheDocument();
    expect(within(section).getByRole('link', { name: /^Edit Video \(/ })).toHaveAttribute(
      'href',
      `/ai-video/edit-video?video=${video.id}&item=0`,
    );
    expect(within(section).getByRole('link', { name: /^AI Motion \(/ })).toHaveAttribute(
      'href',
      `/ai-video/ai-motion?image=${picture.id}&item=0`,
    );

    const removeButtons = within(section).getAllByRole('button', { name: /^Remove from asset: / });
    expect(removeButtons).toHaveLength(2);
    // Newest first: the video, then the picture.
    await user.click(removeButtons[1]!);
    await waitFor(() => expect(within(section).queryByRole('img', { name: /a red fox/ })).not.toBeInTheDocument());
    expect(requestsTo(`PUT asset/${asset.id}`)[0]?.json).toEqual({ name: 'Beach', description: '', fields: {}, media_ids: [video.id] });
    expect(fakeMedia.media.get(picture.id)?.asset_id).toBeNull();
    expect(fakeMedia.media.get(video.id)?.asset_id).toBe(asset.id);
  });

  it('deletes it after asking, then goes back to the list', async () => {
    const asset = addAsset({ name: 'Beach' });
    const picture = imageResult({ asset_id: asset.id });
    await signedInAs(alice);
    const { router } = renderApp(`/assets/${asset.id}`);
    await user.click(await screen.findByRole('button', { name: 'Delete asset' }, PAGE_LOAD));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this asset?' });
    await user.click(within(dialog).getByRole('button', { name: 'Keep it' }));
    expect(requestsTo(`DELETE asset/${asset.id}`)).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Delete asset' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Delete this asset?' })).getByRole('button', { name: 'Delete asset' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/assets'));
    expect(requestsTo(`DELETE asset/${asset.id}`)).toHaveLength(1);
    expect(fakeAssets.assets.has(asset.id)).toBe(false);
    expect(fakeMedia.media.get(picture.id)?.asset_id).toBeNull();
    expect(await screen.findByText(/No assets yet/)).toBeInTheDocument();
  });
});

/** A tool page with a job sent and polled takes longer than a default test on a busy machine. */
const SLOW = { timeout: 20_000 } as const;

describe('assets in the tools', () => {
  const generate = () => screen.getByRole('button', { name: 'Generate' });

  it('does not offer assets to a signed-out visitor', async () => {
    renderApp('/ai-image/image-to-image');
    expect(await screen.findByRole('heading', { level: 1, name: 'Image to Image' }, PAGE_LOAD)).toBeInTheDocument();
    expect(screen.queryByRole('combobox', { name: 'Save results to asset' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Choose from assets/ })).not.toBeInTheDocument();
  });

  it('chooses a picture from an asset for the upload field; the job gets its URL and ?asset_id=', SLOW, async () => {
    const asset = addAsset({ name: 'Beach' });
    imageResult({ asset_id: asset.id, args: { prompt: 'Fox picture', option: 'Seedream' } });
    videoResult({ asset_id: asset.id });
    await signedInAs(alice);
    renderApp('/ai-image/image-to-image');
    await waitFor(() => expect(generate()).toBeEnabled(), PAGE_LOAD);

    await user.click(screen.getByRole('button', { name: 'Choose from assets for Image' }));
    const dialog = await screen.findByRole('dialog', { name: 'Choose a picture from your assets' });
    // Only the pictures are offered (the video is left out).
    const choice = await within(dialog).findByRole('button', { name: 'Choose Fox picture' });
    expect(within(dialog).getAllByRole('button', { name: /^Choose / })).toHaveLength(1);
    await user.click(choice);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByRole('img', { name: 'Image: Fox picture' })).toHaveAttribute(
      'src',
      'http://localhost/api/files/fox-thumb.jpg?signature=ab',
    );
    expect(fakeMedia.calls).not.toContain('POST image');

    await user.click(screen.getByRole('combobox', { name: 'Save results to asset' }));
    await user.click(await screen.findByRole('option', { name: 'Beach' }));
    await user.type(screen.getByRole('textbox', { name: 'Prompt' }), 'the fox as a watercolour');
    await user.click(generate());
    await waitFor(() => expect(fakeMedia.submissions).toHaveLength(1));
    expect(fakeMedia.submissions[0]?.fields.image_url).toBe('http://localhost/api/files/fox.png?signature=ab');
    const sent = sentUrls.map((url) => new URL(url)).find((url) => url.pathname.endsWith(`/${fakeMedia.submissions[0]?.endpoint}`));
    expect(sent?.searchParams.get('asset_id')).toBe(asset.id);
  });

  it('AI Motion (the video form): a first frame from an asset, and the job sent with ?asset_id=', SLOW, async () => {
    const asset = addAsset({ name: 'Beach' });
    imageResult({ asset_id: asset.id, args: { prompt: 'Beach picture', option: 'Seedream' } });
    await signedInAs(alice);
    renderApp('/ai-video/ai-motion');
    await waitFor(() => expect(generate()).toBeEnabled(), PAGE_LOAD);
    await user.type(screen.getByRole('textbox', { name: 'Prompt' }), 'waves on a beach');
    await user.click(screen.getByRole('button', { name: /^Choose from assets for First frame/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Choose a picture from your assets' });
    await user.click(await within(dialog).findByRole('button', { name: 'Choose Beach picture' }));
    expect(await screen.findByRole('img', { name: 'First frame: Beach picture' })).toBeInTheDocument();
    await user.click(screen.getByRole('combobox', { name: 'Save results to asset' }));
    await user.click(await screen.findByRole('option', { name: 'Beach' }));
    await user.click(generate());

    await waitFor(() => expect(fakeMedia.submissions.filter((submission) => submission.endpoint === 'media')).toHaveLength(1));
    const fields = fakeMedia.submissions.find((submission) => submission.endpoint === 'media')?.fields ?? {};
    expect(fields.image_urls).toEqual(['http://localhost/api/files/fox.png?signature=ab']);
    const sent = sentUrls.map((url) => new URL(url)).find((url) => url.pathname === '/api/media' && url.searchParams.has('asset_id'));
    expect(sent?.searchParams.get('asset_id')).toBe(asset.id);
  });

  // Two pages, a media load and a job: longer than SLOW on a busy machine.
  it('"Use in a tool" takes a picture to AI Motion as its first frame, and the job is sent with it', { timeout: 45_000 }, async () => {
    const asset = addAsset({ name: 'Beach' });
    imageResult({ asset_id: asset.id, args: { prompt: 'Beach picture', option: 'Seedream' } });
    await signedInAs(alice);
    const { router } = renderApp(`/assets/${asset.id}`);
    const section = await screen.findByRole('region', { name: 'Results in this asset' }, PAGE_LOAD);
    await user.click(await within(section).findByRole('link', { name: /^AI Motion \(/ }));
    expect(await screen.findByRole('heading', { level: 1, name: 'AI Motion' }, PAGE_LOAD)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/ai-video/ai-motion');
    // The picture is the first frame at once: nothing to upload or choose again.
    expect(await screen.findByRole('img', { name: 'First frame: Beach picture' }, PAGE_LOAD)).toHaveAttribute(
      'src',
      'http://localhost/api/files/fox-thumb.jpg?signature=ab',
    );
    expect(fakeMedia.calls).not.toContain('POST image');

    await waitFor(() => expect(generate()).toBeEnabled(), PAGE_LOAD);
    await user.type(screen.getByRole('textbox', { name: 'Prompt' }), 'the fox runs');
    await user.click(generate());
    await waitFor(() => expect(fakeMedia.submissions.filter((submission) => submission.endpoint === 'media')).toHaveLength(1));
    const fields = fakeMedia.submissions.find((submission) => submission.endpoint === 'media')?.fields ?? {};
    expect(fields.image_urls).toEqual(['http://localhost/api/files/fox.png?signature=ab']);
  });

  it('AI Motion says so when the picture of the link cannot be loaded', { timeout: 30_000 }, async () => {
    await signedInAs(alice);
    renderApp('/ai-video/ai-motion?image=no-such-media&item=0');
    expect(await screen.findByRole('alert', {}, PAGE_LOAD)).toHaveTextContent(/^The picture could not be loaded: /);
    expect(screen.getByRole('button', { name: 'Choose file: First frame (required)' })).toBeInTheDocument();
  });

  it('makes a new asset from the tool form and sends the job with it', SLOW, async () => {
    await signedInAs(alice);
    renderApp('/ai-image/text-to-image');
    await waitFor(() => expect(generate()).toBeEnabled(), PAGE_LOAD);
    await user.click(screen.getByRole('combobox', { name: 'Save results to asset' }));
    await user.click(await screen.findByRole('option', { name: 'New asset…' }));
    const name = screen.getByRole('textbox', { name: 'New asset name' });
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Give the asset a name.')).toBeInTheDocument();
    await user.type(name, 'Foxes{Enter}');
    // Enter made the asset; it did not start a job.
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Save results to asset' })).toHaveValue('Foxes'));
    expect(fakeMedia.submissions).toEqual([]);
    const created = [...fakeAssets.assets.values()][0];
    expect(created?.name).toBe('Foxes');

    await user.type(screen.getByRole('textbox', { name: 'Prompt' }), 'a red fox');
    await user.click(generate());
    await waitFor(() => expect(fakeMedia.submissions).toHaveLength(1));
    const sent = sentUrls.map((url) => new URL(url)).find((url) => url.pathname.endsWith('/image/text-2-image'));
    expect(sent?.searchParams.get('asset_id')).toBe(created?.id);
  });

  it('sends no asset_id when None is chosen', SLOW, async () => {
    addAsset({ name: 'Beach' });
    await signedInAs(alice);
    renderApp('/ai-image/text-to-image');
    await waitFor(() => expect(generate()).toBeEnabled(), PAGE_LOAD);
    expect(screen.getByRole('combobox', { name: 'Save results to asset' })).toHaveValue('None');
    await user.type(screen.getByRole('textbox', { name: 'Prompt' }), 'a red fox');
    await user.click(generate());
    await waitFor(() => expect(fakeMedia.submissions).toHaveLength(1));
    const sent = sentUrls.map((url) => new URL(url)).find((url) => url.pathname.endsWith('/image/text-2-image'));
    expect(sent).toBeDefined();
    expect(sent?.searchParams.has('asset_id')).toBe(false);
  });
});
