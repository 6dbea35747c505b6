import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeApi } from '../msw/handlers';
import { addFinetune, fakeFinetunes, finetuneHandlers, resetFakeFinetunes } from '../msw/finetune';
import { fakeMedia } from '../msw/media';
import { server } from '../msw/server';
import { renderApp, screen, userEvent, waitFor, within } from '../test-utils';
import { PAGE_LOAD, pngFile, setUpJobTests } from './generation-helpers';
import { alice, signedInAs } from './session-helpers';

const user = userEvent.setup();

// Waits of a tenth of the back-off: a running job is polled often, but not in a tight loop.
setUpJobTests(0.05);

beforeEach(() => {
  server.use(...finetuneHandlers);
});
afterEach(() => {
  resetFakeFinetunes();
});

const PAGE = '/ai-production/finetune';
const generate = () => screen.getByRole('button', { name: 'Generate' });
const models = () => screen.getByRole('region', { name: 'Your models' });
const form = () => screen.getByRole('form', { name: 'LoRA Finetune form' });
const header = () => screen.getAllByRole('banner')[0] as HTMLElement;
const count = () => screen.getByTestId('finetune-count');

/** The URLs the fake API gave the uploads, in upload order. */
const uploadedUrls = (): (string | null)[] =>
  [...fakeMedia.media.values()].filter((media) => media.tool === 'upload-image').map((media) => media.items[0]?.url ?? null);

async function uploadTo(label: string, name: string) {
  await user.upload(screen.getByLabelText(new RegExp(`^${label}`), { selector: 'input[type="file"]' }), pngFile(name));
  await screen.findByRole('img', { name: `${label}: ${name}` });
}

/** Bob's group pays per use (a person with no groups is never short, SPEC §6). */
const bob = { username: 'bob@example.com', groups: ['Creators'], attributes: { preferred_username: 'bob' } };

async function openSignedIn(credits = 1000, person: Parameters<typeof signedInAs>[0] = alice) {
  fakeApi.credits = credits;
  await signedInAs(person);
  renderApp(PAGE);
  await screen.findByRole('heading', { level: 1, name: 'LoRA Finetune' }, PAGE_LOAD);
}

describe('the LoRA Finetune page', { timeout: 30_000 }, () => {
  it('shows the kinds with their rules, times and cost, and asks a visitor to sign in', async () => {
    renderApp(PAGE);
    expect(await screen.findByRole('heading', { level: 1, name: 'LoRA Finetune' }, PAGE_LOAD)).toBeInTheDocument();
    const flux = screen.getByRole('radio', { name: 'Flux Fine-tune · 240 credits' });
    expect(flux).toBeChecked();
    expect(screen.getByRole('radio', { name: 'Flux Pro Fine-tune · 240 credits' })).not.toBeChecked();
    expect(screen.getByRole('radio', { name: 'Flux Kontext Fine-tune · 240 credits' })).not.toBeChecked();
    expect(screen.getByText('5–20 pictures · training takes about 2 minutes')).toBeInTheDocument();
    expect(screen.getByText('1–10 pictures · training takes about 20 minutes')).toBeInTheDocument();
    expect(screen.getByText('1–20 input/output picture pairs and a prompt · training takes about 30 minutes')).toBeInTheDocument();
    // Issue 17: not two bare "?" side by side: the page's help by the title, the options' by the kinds.
    const form = screen.getByRole('form', { name: 'LoRA Finetune form' });
    const pageHelp = screen.getByRole('button', { name: 'Help: LoRA Finetune' });
    const optionsHelp = screen.getByRole('button', { name: 'Help: FineTune Options' });
    expect(form).not.toContainElement(pageHelp);
    expect(form).toContainElement(optionsHelp);
    expect(pageHelp.parentElement).not.toContainElement(optionsHelp);
    expect(optionsHelp.parentElement).toContainElement(screen.getByRole('radiogroup'));

    expect(generate()).toBeDisabled();
    expect(screen.getByRole('link', { name: 'Sign in to generate' })).toHaveAttribute('href', '/authentication');
    expect(screen.getByText('Costs 240 credits')).toBeInTheDocument();
    expect(within(models()).getByText('Sign in to train models and see yours here.')).toBeInTheDocument();
    expect(fakeMedia.calls).not.toContain('GET finetune');
  });

  it('disables "Generate" with the reason when the balance does not cover 240 credits', async () => {
    await openSignedIn(100, bob);
    await waitFor(() => expect(screen.getByText('Not enough credits: this costs 240 credits and you have 100.')).toBeInTheDocument());
    expect(generate()).toBeDisabled();
    expect(screen.getByText('Costs 240 credits · you have 100')).toBeInTheDocument();
  });

  it('trains a Flux model: 5 pictures at least, the call’s fields, the job, then the ready model', async () => {
    await openSignedIn();
    await waitFor(() => expect(generate()).toBeEnabled(), PAGE_LOAD);
    expect(await within(models()).findByText('You have not trained a model yet. The models you train appear here.')).toBeInTheDocument();
    expect(count()).toHaveTextContent('0 of 5–20 pictures');

    await user.type(screen.getByRole('textbox', { name: /^Model name/ }), 'My style');
    await user.type(screen.getByRole('textbox', { name: /^Trigger word/ }), 'mystyle');
    for (const index of [1, 2, 3, 4]) await uploadTo(`Picture ${index}`, `p${index}.png`);
    expect(count()).toHaveTextContent('4 of 5–20 pictures');
    await user.click(generate());
    expect(await screen.findByText('Add 5 to 20 pictures.')).toBeInTheDocument();
    expect(fakeFinetunes.submissions).toEqual([]);

    await uploadTo('Picture 5', 'p5.png');
    expect(count()).toHaveTextContent('5 of 5–20 pictures');
    await waitFor(() => expect(screen.queryByText('Add 5 to 20 pictures.')).not.toBeInTheDocument());
    await user.click(generate());
    await waitFor(() => expect(fakeFinetunes.submissions).toHaveLength(1));
    expect(fakeFinetunes.submissions[0]).toEqual({
      fields: { option: 'FluxFinetune', name: 'My style', trigger_word: 'mystyle', image_urls: uploadedUrls() },
      idempotencyKey: expect.any(String),
    });
    expect(uploadedUrls()).toHaveLength(5);

    // The training is listed, then ready once its job ends (the registry's jobs.finished).
    const card = await within(models()).findByRole('article', { name: 'My style' }, PAGE_LOAD);
    expect(card).toHaveTextContent('Trigger word: mystyle');
    expect(await screen.findByText('LoRA Finetune finished', undefined, PAGE_LOAD)).toBeInTheDocument();
    await waitFor(() => expect(within(models()).getByRole('article', { name: 'My style' })).toHaveTextContent('Ready'));
    const ready = within(models()).getByRole('article', { name: 'My style' });
    expect(within(ready).getByRole('link', { name: 'Use in Text to Image' })).toHaveAttribute(
      'href',
      '/ai-image/text-to-image?model=finetune%3Aft1',
    );
    expect(within(ready).getByRole('img', { name: 'Sample of My style' })).toHaveAttribute('src', expect.stringContaining('-result.png'));

    await user.click(within(header()).getByRole('button', { name: 'Jobs, 0 running' }));
    const drawer = await screen.findByRole('dialog', { name: 'Jobs' });
    const job = within(drawer).getByRole('listitem', { name: 'LoRA Finetune, Succeeded' });
    expect(job).toHaveTextContent('My style (Flux Fine-tune)');
    expect(job).toHaveTextContent('240 credits');
  });

  it('shows a training model’s progress from the jobs registry', async () => {
    fakeMedia.pollsToFinish = 10_000;
    await openSignedIn();
    await waitFor(() => expect(generate()).toBeEnabled(), PAGE_LOAD);
    await user.click(screen.getByRole('radio', { name: 'Flux Pro Fine-tune · 240 credits' }));
    expect(count()).toHaveTextContent('0 of 1–10 pictures');
    await user.type(screen.getByRole('textbox', { name: /^Model name/ }), 'Portrait');
    await uploadTo('Picture 1', 'me.png');
    await user.click(generate());
    const card = await within(models()).findByRole('article', { name: 'Portrait' }, PAGE_LOAD);
    await waitFor(() => expect(card).toHaveTextContent(/Training… \d+ %/));
    expect(within(card).getByRole('progressbar')).toBeInTheDocument();
    expect(within(card).queryByRole('link')).not.toBeInTheDocument();
    expect(within(header()).getByRole('button', { name: 'Jobs, 1 running' })).toBeInTheDocument();
    expect(fakeFinetunes.submissions[0]?.fields).toEqual({ option: 'FluxProFinetune', name: 'Portrait', image_urls: uploadedUrls() });
  });

  it('adds and removes picture places within the kind’s limits', async () => {
    await openSignedIn();
    await waitFor(() => expect(generate()).toBeEnabled(), PAGE_LOAD);
    expect(within(form()).getAllByRole('button', { name: /^Remove picture/ })).toHaveLength(5);
    await uploadTo('Picture 1', 'a.png');
    await uploadTo('Picture 2', 'b.png');
    await user.click(screen.getByRole('button', { name: 'Remove picture 1' }));
    // b.png moves up to the first place; a.png is gone.
    expect(await screen.findByRole('img', { name: 'Picture 1: b.png' })).toBeInTheDocument();
    expect(screen.queryByRole('img', { name: /a\.png/ })).not.toBeInTheDocument();
    expect(count()).toHaveTextContent('1 of 5–20 pictures');
    const add = screen.getByRole('button', { name: 'Add a picture' });
    for (let places = 4; places < 20; places += 1) await user.click(add);
    expect(screen.getByLabelText(/^Picture 20/, { selector: 'input[type="file"]' })).toBeInTheDocument();
    expect(add).toBeDisabled();
  });

  it('trains a Kontext model from input/output pairs and a prompt', async () => {
    await openSignedIn();
    await waitFor(() => expect(generate()).toBeEnabled(), PAGE_LOAD);
    await user.click(screen.getByRole('radio', { name: 'Flux Kontext Fine-tune · 240 credits' }));
    expect(count()).toHaveTextContent('0 of 1–20 pairs');
    expect(screen.queryByLabelText(/^Picture 1/, { selector: 'input[type="file"]' })).not.toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: /^Model name/ }), 'Sketchify');
    await uploadTo('Pair 1 input', 'in1.png');
    await uploadTo('Pair 1 output', 'out1.png');
    await user.click(screen.getByRole('button', { name: 'Add a pair' }));
    await uploadTo('Pair 2 input', 'in2.png');
    expect(count()).toHaveTextContent('1 of 1–20 pairs');

    await user.click(generate());
    expect(await screen.findByText('Add both pictures of pair 2.')).toBeInTheDocument();
    expect(screen.getByText('Describe what the pairs teach')).toBeInTheDocument();
    expect(fakeFinetunes.submissions).toEqual([]);

    await uploadTo('Pair 2 output', 'out2.png');
    expect(count()).toHaveTextContent('2 of 1–20 pairs');
    await user.type(screen.getByRole('textbox', { name: /^Prompt/ }), 'turn photos into pencil sketches');
    await user.click(generate());
    await waitFor(() => expect(fakeFinetunes.submissions).toHaveLength(1));
    const [in1, out1, in2, out2] = uploadedUrls();
    expect(fakeFinetunes.submissions[0]?.fields).toEqual({
      option: 'FluxKontextFinetune',
      name: 'Sketchify',
      prompt: 'turn photos into pencil sketches',
      image_urls: [in1, out1, in2, out2],
    });
  });

  it('asks for a name', async () => {
    await openSignedIn();
    await waitFor(() => expect(generate()).toBeEnabled(), PAGE_LOAD);
    await user.click(screen.getByRole('radio', { name: 'Flux Pro Fine-tune · 240 credits' }));
    await uploadTo('Picture 1', 'me.png');
    await user.click(generate());
    expect(await screen.findByText('Enter a name for your model')).toBeInTheDocument();
    expect(fakeFinetunes.submissions).toEqual([]);
  });
});

describe('"Your models"', { timeout: 20_000 }, () => {
  it('lists the models newest first with status, preview, trigger word and where to use them', async () => {
    addFinetune({ id: 'ft-flux', name: 'Watercolour', trigger_word: 'wtrclr', status: 'ready' });
    addFinetune({ id: 'ft-broken', name: 'Broken one', status: 'failed' });
    addFinetune({ id: 'ft-training', name: 'Still learning', status: 'training' });
    addFinetune({ id: 'ft-kontext', name: 'Sketchify', option: 'FluxKontextFinetune', status: 'ready', image_count: 4 });
    fakeMedia.pollsToFinish = Number.POSITIVE_INFINITY;
    await openSignedIn();
    await waitFor(() => expect(within(models()).getAllByRole('article')).toHaveLength(4), PAGE_LOAD);
    const [kontext, training, broken, flux] = within(models()).getAllByRole('article') as HTMLElement[];

    expect(kontext).toHaveAccessibleName('Sketchify');
    expect(kontext).toHaveTextContent('Flux Kontext Fine-tune · 2 pairs');
    expect(kontext).toHaveTextContent('Ready');
    expect(within(kontext!).getByRole('link', { name: 'Use in Image to Image' })).toHaveAttribute(
      'href',
      '/ai-image/image-to-image?model=finetune%3Aft-kontext',
    );
    expect(within(kontext!).queryByRole('link', { name: 'Use in Text to Image' })).not.toBeInTheDocument();

    // A training this tab did not start: since issue 21 the jobs registry follows the person's
    // running jobs from the server, so it is still training here (the fake server keeps it so).
    expect(training).toHaveTextContent('Training…');
    expect(within(training!).queryByRole('link')).not.toBeInTheDocument();
    expect(within(training!).queryByRole('img')).not.toBeInTheDocument();

    expect(broken).toHaveTextContent('Failed');
    expect(within(broken!).queryByRole('link')).not.toBeInTheDocument();

    expect(flux).toHaveTextContent('Flux Fine-tune · 5 pictures');
    expect(flux).toHaveTextContent('Trigger word: wtrclr');
    expect(within(flux!).getByRole('img', { name: 'Sample of Watercolour' })).toHaveAttribute('src', expect.stringContaining('ft-flux-preview.png'));
    expect(within(flux!).getByRole('link', { name: 'Use in Text to Image' })).toHaveAttribute(
      'href',
      '/ai-image/text-to-image?model=finetune%3Aft-flux',
    );
  });

  it('says why the list failed and loads it again on "Try again"', async () => {
    fakeFinetunes.listFailure = { status: 503, detail: 'The models are resting.' };
    addFinetune({ name: 'Watercolour' });
    await openSignedIn();
    expect(await within(models()).findByText('The models are resting.', undefined, PAGE_LOAD)).toBeInTheDocument();
    fakeFinetunes.listFailure = null;
    await user.click(within(models()).getByRole('button', { name: 'Try again' }));
    expect(await within(models()).findByRole('article', { name: 'Watercolour' })).toBeInTheDocument();
    expect(within(models()).queryByText('The models are resting.')).not.toBeInTheDocument();
  });
});
