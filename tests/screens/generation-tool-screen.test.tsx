import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { MESSAGES } from '@/config/messages';
import { addFinetune, finetuneHandlers, resetFakeFinetunes } from '../msw/finetune';
import { API, fakeApi } from '../msw/handlers';
import { addMedia, fakeMedia } from '../msw/media';
import { server } from '../msw/server';
import { act, renderApp, screen, userEvent, waitFor, within } from '../test-utils';
import { fileOfSize, PAGE_LOAD, pngFile, setUpJobTests } from './generation-helpers';
import { alice, signedInAs } from './session-helpers';

const user = userEvent.setup();

setUpJobTests();

const results = () => screen.getByRole('region', { name: 'Results' });
const generate = () => screen.getByRole('button', { name: 'Generate' });
const balance = () => within(screen.getByRole('banner')).getByLabelText('Credit balance');

/** The URLs the fake API gave the uploads, in upload order. */
const uploadedUrls = (): (string | null)[] =>
  [...fakeMedia.media.values()].filter((media) => media.tool === 'upload-image').map((media) => media.items[0]?.url ?? null);

async function pickModel(name: RegExp) {
  await user.click(await screen.findByRole('combobox', { name: 'Model' }, PAGE_LOAD));
  await user.click(await screen.findByRole('option', { name }));
}

describe('a generation tool page', () => {
  it('asks a signed-out visitor to sign in before generating', async () => {
    renderApp('/ai-image/text-to-image');
    expect(await screen.findByRole('heading', { level: 1, name: 'Text to Image' }, PAGE_LOAD)).toBeInTheDocument();
    expect(generate()).toBeDisabled();
    expect(screen.getByRole('link', { name: 'Sign in to generate' })).toHaveAttribute('href', '/authentication');
    expect(screen.getByText('Costs 4 credits')).toBeInTheDocument();
  });

  it('generates an image: model and cost, the job running, then the labelled result', async () => {
    await signedInAs(alice);
    renderApp('/ai-image/text-to-image');
    await waitFor(() => expect(balance()).toHaveTextContent('100 credits'), PAGE_LOAD);
    await pickModel(/^Flux 1\.1 Pro Ultra · 8 credits$/);
    expect(screen.getByText('Costs 8 credits · you have 100')).toBeInTheDocument();

    await user.type(screen.getByRole('textbox', { name: 'Prompt' }), 'a red fox in the snow');
    await user.click(screen.getByRole('combobox', { name: 'Aspect ratio' }));
    await user.click(await screen.findByRole('option', { name: '16:9' }));
    await user.click(generate());

    const image = await within(results()).findByRole('img', { name: '1.1.Flux1.1ProUltra: a red fox in the snow' }, PAGE_LOAD);
    expect(image).toHaveAttribute('src', expect.stringContaining('-thumbnail.jpg'));
    await waitFor(() => expect(balance()).toHaveTextContent('92 credits'));
    expect(fakeMedia.submissions).toHaveLength(1);
    expect(fakeMedia.submissions[0]).toMatchObject({
      endpoint: 'image/text-2-image',
      fields: { option: 'Flux1.1ProUltra', prompt: 'a red fox in the snow', aspect_ratio: '16:9', async_mode: 'true' },
      idempotencyKey: expect.any(String),
    });
    expect(await screen.findByText('Text to Image finished')).toBeInTheDocument();
  });

  it('disables "Generate" with the reason when the credits do not cover the model', async () => {
    fakeApi.credits = 4;
    await signedInAs({ username: 'bob@example.com', groups: ['Creators'], attributes: { preferred_username: 'bob' } });
    renderApp('/ai-image/text-to-image');
    await waitFor(() => expect(balance()).toHaveTextContent('4 credits'), PAGE_LOAD);
    expect(generate()).toBeEnabled();
    await pickModel(/^OpenAI Image 1 · 16 credits$/);
    expect(generate()).toBeDisabled();
    expect(screen.getByText('Not enough credits: this costs 16 credits and you have 4.')).toBeInTheDocument();
    expect(screen.getByText('Costs 16 credits · you have 4')).toBeInTheDocument();
  });

  it('says "Enter a prompt" and sends nothing without one', async () => {
    await signedInAs(alice);
    renderApp('/ai-image/text-to-image');
    await waitFor(() => expect(generate()).toBeEnabled(), PAGE_LOAD);
    await user.click(generate());
    expect(await screen.findByText('Enter a prompt')).toBeInTheDocument();
    expect(fakeMedia.submissions).toEqual([]);
  });

  it('says what a cleared duration must be, and sends nothing (it is not taken as the shortest sound)', async () => {
    await signedInAs(alice);
    renderApp('/ai-audio/text-to-audio');
    await waitFor(() => expect(generate()).toBeEnabled(), PAGE_LOAD);
    await user.type(screen.getByRole('textbox', { name: 'Describe the sound' }), 'rain on a tin roof');
    await user.clear(screen.getByRole('textbox', { name: 'Duration (seconds)' }));
    await user.click(generate());
    expect(await screen.findByText('Enter a whole number of seconds from 1 to 30')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Duration (seconds)' })).toHaveValue('');
    expect(fakeMedia.submissions).toEqual([]);
  });

  it('says "No upload file" on image to image without a picture, and sends nothing', async () => {
    await signedInAs(alice);
    renderApp('/ai-image/image-to-image');
    await waitFor(() => expect(generate()).toBeEnabled(), PAGE_LOAD);
    await user.type(screen.getByRole('textbox', { name: 'Prompt' }), 'make it blue');
    await user.click(generate());
    expect(await screen.findByText(MESSAGES.noUploadFile)).toBeInTheDocument();
    expect(fakeMedia.submissions).toEqual([]);
  });

  it('refuses an oversized picture before sending a byte', async () => {
    await signedInAs(alice);
    renderApp('/ai-image/image-to-image');
    await waitFor(() => expect(generate()).toBeEnabled(), PAGE_LOAD);
    const input = screen.getByLabelText(/^Image/, { selector: 'input[type="file"]' });
    expect(input).toHaveAttribute('accept', expect.stringContaining('.png'));
    await user.upload(input, fileOfSize('huge photo.png', 'image/png', 30_000_001));
    expect(await screen.findByText('"huge_photo.png" is 30,000,001 bytes; images can be at most 30 MB.')).toBeInTheDocument();
    expect(fakeMedia.calls.filter((call) => call === 'POST image')).toEqual([]);
  });

  it('uploads a picture, shows it, and sends its URL with the job', async () => {
    await signedInAs(alice);
    renderApp('/ai-image/image-to-image');
    await waitFor(() => expect(generate()).toBeEnabled(), PAGE_LOAD);
    await user.upload(screen.getByLabelText(/^Image/, { selector: 'input[type="file"]' }), pngFile('cat.png'));
    expect(await screen.findByRole('img', { name: 'Image: cat.png' })).toBeInTheDocument();
    expect(fakeMedia.calls).toContain('POST image');
    await user.type(screen.getByRole('textbox', { name: 'Prompt' }), 'the cat as a watercolour');
    await user.click(generate());
    await waitFor(() => expect(fakeMedia.submissions).toHaveLength(1));
    expect(fakeMedia.submissions[0]?.fields.image_url).toBe(uploadedUrls()[0]);
  });

  it('makes speech with the default voice and plays it in an audio player with a download link', async () => {
    await signedInAs(alice);
    renderApp('/ai-audio/text-to-speech');
    await waitFor(() => expect(generate()).toBeEnabled(), PAGE_LOAD);
    expect(screen.getByRole('combobox', { name: 'Voice' })).toHaveValue('Aria');
    await user.type(screen.getByRole('textbox', { name: 'Text' }), 'Hello there');
    await user.click(generate());

    const download = await within(results()).findByRole('link', { name: 'Download 1.1.Text2Speech' }, PAGE_LOAD);
    const audio = results().querySelector('audio');
    expect(audio).not.toBeNull();
    expect(audio).toHaveAttribute('controls');
    expect(audio?.getAttribute('src')).toBe(download.getAttribute('href'));
    expect(fakeMedia.submissions[0]?.fields).toMatchObject({ option: 'Text2Speech', voice: 'Aria', prompt: 'Hello there' });
  });

  it('fills the prompt from the prompt helper', async () => {
    fakeMedia.promptAnswers.set('InspireMe', 'A lighthouse on a cliff at golden hour');
    await signedInAs(alice);
    renderApp('/ai-image/text-to-image');
    await user.click(await screen.findByRole('button', { name: 'Prompt helper' }, PAGE_LOAD));
    expect(screen.queryByRole('menuitem', { name: 'Guess from picture' })).not.toBeInTheDocument();
    await user.click(await screen.findByRole('menuitem', { name: 'Inspire me' }));
    await waitFor(() =>
      expect(screen.getByRole('textbox', { name: 'Prompt' })).toHaveValue('A lighthouse on a cliff at golden hour'),
    );
    expect(fakeMedia.calls).toContain('POST text/prompt');
  });

  it('guesses a prompt from the uploaded picture', async () => {
    await signedInAs(alice);
    renderApp('/ai-image/image-to-image');
    await waitFor(() => expect(generate()).toBeEnabled(), PAGE_LOAD);
    await user.upload(screen.getByLabelText(/^Image/, { selector: 'input[type="file"]' }), pngFile('dog.png'));
    await screen.findByRole('img', { name: 'Image: dog.png' });
    await user.click(screen.getByRole('button', { name: 'Prompt helper' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Guess from picture' }));
    await waitFor(() =>
      expect(screen.getByRole('textbox', { name: 'Prompt' })).toHaveValue(`A picture described from ${uploadedUrls()[0]}`),
    );
  });

  it('shows the prompt helper error under the field', async () => {
    server.use(http.post(`${API}/text/prompt`, () => HttpResponse.json({ detail: 'The helper is resting.' }, { status: 503 })));
    await signedInAs(alice);
    renderApp('/ai-image/text-to-image');
    await user.click(await screen.findByRole('button', { name: 'Prompt helper' }, PAGE_LOAD));
    await user.click(await screen.findByRole('menuitem', { name: 'Suggest prompt' }));
    expect(await screen.findByText('The helper is resting.')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Prompt' })).toHaveValue('');
  });

  it('sends the face swap target first and one face order index per face', async () => {
    await signedInAs(alice);
    renderApp('/ai-image/face-swap');
    await waitFor(() => expect(generate()).toBeEnabled(), PAGE_LOAD);
    expect(screen.getByText(/0 = leftmost/)).toBeInTheDocument();
    await user.upload(screen.getByLabelText(/^Target picture/, { selector: 'input[type="file"]' }), pngFile('group.png'));
    await user.upload(screen.getByLabelText(/^Face 1/, { selector: 'input[type="file"]' }), pngFile('face.png'));
    await screen.findByRole('img', { name: 'Face 1: face.png' });
    const order = screen.getByRole('textbox', { name: /Face order index \(Face 1\)/ });
    await user.clear(order);
    await user.type(order, '2');
    await user.click(generate());
    await waitFor(() => expect(fakeMedia.submissions).toHaveLength(1));
    const fields = fakeMedia.submissions[0]?.fields;
    expect(fields?.image_urls).toEqual(uploadedUrls());
    expect(fields?.order_indices).toEqual(['2']);
  });

  it('asks for the face pictures of a face swap by name', async () => {
    await signedInAs(alice);
    renderApp('/ai-image/face-swap');
    await waitFor(() => expect(generate()).toBeEnabled(), PAGE_LOAD);
    await user.click(generate());
    expect(await screen.findByText('Add the target picture')).toBeInTheDocument();
    expect(screen.getByText('Add the face 1 picture')).toBeInTheDocument();
  });

  it('lists earlier results newest first, with failures, their reason and refund', async () => {
    await signedInAs(alice);
    addMedia({ id: 'old', tool: 'text-to-image', status: 'success_image', option: 'Seedream', args: { prompt: 'an old barn', option: 'Seedream' }, items: [{ type: 'image', status: 'success', url: 'http://localhost/api/files/old.png', thumbnail_url: null, file_id: 'old' }] });
    addMedia({ id: 'broken', tool: 'text-to-image', status: 'failed', option: 'Seedream', cost: 4, refunded: true, error: 'The render engine failed.', args: { prompt: 'a broken thing' } });
    renderApp('/ai-image/text-to-image?job=old');
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(2), PAGE_LOAD);
    const [newest, oldest] = screen.getAllByRole('article');
    expect(newest).toHaveTextContent('Failed: The render engine failed.');
    expect(newest).toHaveTextContent('Refunded 4 credits');
    expect(within(oldest as HTMLElement).getByRole('img', { name: '1.1.Seedream: an old barn' })).toBeInTheDocument();
    expect(oldest).toHaveAttribute('aria-current', 'true');
  });

  it('hands a double-clicked Generate over once, and says it was sent', async () => {
    await signedInAs(alice);
    renderApp('/ai-image/text-to-image');
    await waitFor(() => expect(generate()).toBeEnabled(), PAGE_LOAD);
    await user.type(screen.getByRole('textbox', { name: 'Prompt' }), 'one fox only');
    // Watched from before the click: the note lasts SUBMIT_COOLDOWN_MS, which a busy machine can
    // spend inside the double click itself (this test failed so in a loaded CI run).
    const sentShown = waitFor(() => {
      expect(screen.getByText('Sent. Follow it below or in the jobs panel.')).toBeInTheDocument();
      expect(generate()).toBeDisabled();
    });
    await user.dblClick(generate());
    await sentShown;
    await waitFor(() => expect(fakeMedia.submissions).toHaveLength(1));
    await within(results()).findByRole('img', { name: /one fox only/ }, PAGE_LOAD);
    expect(fakeMedia.submissions).toHaveLength(1);
    // Available again after the short pause.
    await waitFor(() => expect(generate()).toBeEnabled(), { timeout: 3000 });
  });

  it('removes exactly the picture slot clicked, keeping the others and their uploads', async () => {
    await signedInAs(alice);
    renderApp('/ai-image/image-elements');
    await waitFor(() => expect(generate()).toBeEnabled(), PAGE_LOAD);
    await user.click(screen.getByRole('button', { name: 'Add another picture' }));
    await user.click(screen.getByRole('button', { name: 'Add another picture' }));
    const names = ['a.png', 'b.png', 'c.png', 'd.png'];
    for (const [index, name] of names.entries()) {
      await user.upload(screen.getByLabelText(new RegExp(`^Elements ${index + 1}`), { selector: 'input[type="file"]' }), pngFile(name));
      await screen.findByRole('img', { name: `Elements ${index + 1}: ${name}` });
    }
    const [urlA, urlB, , urlD] = uploadedUrls();
    await user.click(screen.getByRole('button', { name: 'Remove Elements 3' }));
    // d.png moves up to third place; c.png is gone from the page and from the call.
    expect(await screen.findByRole('img', { name: 'Elements 3: d.png' })).toBeInTheDocument();
    expect(screen.queryByRole('img', { name: /c\.png/ })).not.toBeInTheDocument();
    expect(screen.queryByText(/Elements 4/)).not.toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: 'Prompt' }), 'all together');
    await user.click(generate());
    await waitFor(() => expect(fakeMedia.submissions).toHaveLength(1));
    expect(fakeMedia.submissions[0]?.fields.image_urls).toEqual([urlA, urlB, urlD]);
  });

  it('marks the picker of a missing picture invalid and points it at the message', async () => {
    await signedInAs(alice);
    renderApp('/ai-image/image-to-image');
    await waitFor(() => expect(generate()).toBeEnabled(), PAGE_LOAD);
    const picker = screen.getByRole('button', { name: 'Choose file: Image (required)' });
    expect(picker).not.toHaveAttribute('aria-invalid');
    await user.type(screen.getByRole('textbox', { name: 'Prompt' }), 'make it blue');
    await user.click(generate());
    await waitFor(() => expect(picker).toHaveAttribute('aria-invalid', 'true'));
    expect(picker).toHaveAccessibleDescription(MESSAGES.noUploadFile);
  });

  it('keeps the prompt helper button (busy) while it writes, so focus stays on it', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    server.use(
      http.post(`${API}/text/prompt`, async () => {
        await gate;
        return HttpResponse.json({ data: { mode: 'InspireMe', prompt: 'A quiet harbour' } });
      }),
    );
    await signedInAs(alice);
    renderApp('/ai-image/text-to-image');
    await user.click(await screen.findByRole('button', { name: 'Prompt helper' }, PAGE_LOAD));
    await user.click(await screen.findByRole('menuitem', { name: 'Inspire me' }));
    const busy = await screen.findByRole('button', { name: 'Writing a prompt…' });
    expect(busy).toHaveAttribute('aria-busy', 'true');
    expect(busy).toHaveAttribute('aria-disabled', 'true');
    release();
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Prompt' })).toHaveValue('A quiet harbour'));
    expect(screen.getByRole('button', { name: 'Prompt helper' })).toBe(busy);
  });

  it('highlights a running job named by ?job= (its live card)', async () => {
    // The jobs panel links only finished jobs to their result (issue 17); a ?job= link to a
    // running one (a bookmark, a notification) still shows its live card highlighted.
    fakeMedia.pollsToFinish = 10_000;
    await signedInAs(alice);
    const { router } = renderApp('/ai-image/text-to-image');
    await waitFor(() => expect(generate()).toBeEnabled(), PAGE_LOAD);
    await user.type(screen.getByRole('textbox', { name: 'Prompt' }), 'a slow one');
    await user.click(generate());
    await screen.findByRole('button', { name: 'Jobs, 1 running' });
    const running = [...fakeMedia.media.values()].find((media) => media.args.prompt === 'a slow one');
    expect(running).toBeDefined();
    await act(() => router.navigate(`/ai-image/text-to-image?job=${running?.id ?? ''}`));
    const card = await within(results()).findByRole('article', { name: /^Text to Image job/ });
    await waitFor(() => expect(card).toHaveAttribute('aria-current', 'true'));
  });

  it('says nothing about a refund for a failed job that cost nothing', async () => {
    await signedInAs(alice);
    addMedia({ id: 'free', tool: 'text-to-image', status: 'failed', option: 'Seedream', cost: 0, refunded: false, error: 'Nope.', args: { prompt: 'free' } });
    addMedia({ id: 'paid', tool: 'text-to-image', status: 'failed', option: 'Seedream', cost: 4, refunded: false, error: 'Nope.', args: { prompt: 'paid' } });
    renderApp('/ai-image/text-to-image');
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(2), PAGE_LOAD);
    const [paid, free] = screen.getAllByRole('article');
    expect(paid).toHaveTextContent('Not refunded');
    expect(free).not.toHaveTextContent('Not refunded');
    expect(free).toHaveTextContent('Failed: Nope.');
  });

  it('says so when nothing was generated yet', async () => {
    await signedInAs(alice);
    renderApp('/ai-audio/text-to-music');
    await waitFor(() => expect(generate()).toBeEnabled(), PAGE_LOAD);
    expect(await within(results()).findByText('Nothing generated yet. Your results appear here, newest first.')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Duration (seconds)' })).toHaveValue('15');
  });

  it('shows the help topic of the tool', async () => {
    renderApp('/ai-image/text-to-image');
    await user.click(await screen.findByRole('button', { name: 'Help: Text To Image' }, PAGE_LOAD));
    expect(await screen.findByText('Describe a picture in words and pick a model to draw it.')).toBeInTheDocument();
  });
});

describe('trained models in a tool\'s model list', () => {
  afterEach(() => resetFakeFinetunes());

  it('offers the person\'s ready model on Text to Image and sends its base model with finetune_id', async () => {
    server.use(...finetuneHandlers);
    const ready = addFinetune({ name: 'Watercolour', option: 'FluxFinetune' });
    addFinetune({ name: 'Still training', option: 'FluxFinetune', status: 'training' });
    // The jobs registry follows the person's running jobs from the server (issue 21): it stays training.
    fakeMedia.pollsToFinish = Number.POSITIVE_INFINITY;
    await signedInAs(alice);
    renderApp('/ai-image/text-to-image');
    await waitFor(() => expect(generate()).toBeEnabled(), PAGE_LOAD);
    await user.click(screen.getByRole('combobox', { name: 'Model' }));
    const option = await screen.findByRole('option', { name: /Watercolour.* · 8 credits$/ }, PAGE_LOAD);
    expect(screen.queryByRole('option', { name: /Still training/ })).not.toBeInTheDocument();
    await user.click(option);
    expect(screen.getByText('Costs 8 credits · you have 100')).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: 'Prompt' }), 'a fox');
    await user.click(generate());
    await waitFor(() => expect(fakeMedia.submissions).toHaveLength(1));
    expect(fakeMedia.submissions[0]).toMatchObject({
      endpoint: 'image/text-2-image',
      fields: { option: 'FluxFinetuned', finetune_id: ready.id, prompt: 'a fox' },
    });
  });
});
