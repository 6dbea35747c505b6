import { describe, expect, it } from 'vitest';
import { RESULT_ACTION_TEXTS } from '@/config/compare-texts';
import { TOOL_TEXTS } from '@/config/job-texts';
import { generationToolBySlug } from '@/config/generation-tools';
import { defaultFormValues, generationFields, generationFormSchema, remixFill } from '@/screens/tools/generation-form';
import { fakeApi } from '../msw/handlers';
import { addMedia, fakeMedia } from '../msw/media';
import { renderApp, screen, userEvent, waitFor, within } from '../test-utils';
import { PAGE_LOAD, setUpJobTests } from './generation-helpers';
import { alice, signedInAs } from './session-helpers';

/**
 * Issue 21 item 7 on the tool pages: "Images" (1–4 per run where the model makes several) with its
 * cost before Generate, "Negative prompt" where the model takes one, each picture's seed, Upscale
 * straight from a result, and comparing two results side by side.
 */
const user = userEvent.setup();

setUpJobTests();

const generate = () => screen.getByRole('button', { name: 'Generate' });

/** A person in a group (SPEC §6: one with no groups at all is never refused for credits). */
const bob = { username: 'bob@example.com', groups: ['Creators'], attributes: { preferred_username: 'bob' } };

async function chooseModel(label: RegExp) {
  await user.click(screen.getByRole('combobox', { name: 'Model' }));
  await user.click(await screen.findByRole('option', { name: label }, PAGE_LOAD));
}

const picture = (id: string, seed: number) => ({
  type: 'image' as const,
  status: 'success',
  url: `http://localhost/api/files/${id}.png`,
  thumbnail_url: null,
  file_id: id,
  seed,
});

describe('Images and Negative prompt on an image tool', () => {
  it('offers them where the model takes them, prices the run before Generate and sends them', async () => {
    await signedInAs(alice);
    renderApp('/ai-image/text-to-image');
    await waitFor(() => expect(generate()).toBeEnabled(), PAGE_LOAD);
    // Seedream makes several pictures per run but takes no negative prompt.
    expect(screen.getByRole('radiogroup', { name: TOOL_TEXTS.imagesLabel })).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: TOOL_TEXTS.negativePromptLabel })).not.toBeInTheDocument();

    await chooseModel(/^Stable Diffusion 3\.5 · 4 credits$/);
    const negative = await screen.findByRole('textbox', { name: TOOL_TEXTS.negativePromptLabel });
    await user.click(within(screen.getByRole('radiogroup', { name: TOOL_TEXTS.imagesLabel })).getByLabelText('3'));
    expect(screen.getByTestId('generation-cost')).toHaveTextContent('Costs 12 credits (3 images × 4 credits) · you have 100');
    await user.type(screen.getByRole('textbox', { name: 'Prompt' }), 'a lighthouse at night');
    await user.type(negative, 'boats, fog');
    await user.click(generate());
    await waitFor(() => expect(fakeMedia.submissions).toHaveLength(1));
    expect(fakeMedia.submissions[0]).toMatchObject({
      endpoint: 'image/text-2-image',
      fields: { option: 'StableDiffusion3.5', prompt: 'a lighthouse at night', negative_prompt: 'boats, fog', num_images: '3' },
    });
    // The jobs panel's job costs the run.
    await waitFor(() => expect(fakeApi.credits).toBe(88));
  });

  it('hides both for a model that makes one picture and takes no negative prompt, and prices one', async () => {
    await signedInAs(alice);
    renderApp('/ai-image/text-to-image');
    await waitFor(() => expect(generate()).toBeEnabled(), PAGE_LOAD);
    await user.click(within(screen.getByRole('radiogroup', { name: TOOL_TEXTS.imagesLabel })).getByLabelText('2'));
    expect(screen.getByTestId('generation-cost')).toHaveTextContent('Costs 8 credits (2 images × 4 credits)');
    await chooseModel(/^Leonardo Image · 4 credits$/);
    expect(screen.queryByRole('radiogroup', { name: TOOL_TEXTS.imagesLabel })).not.toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: TOOL_TEXTS.negativePromptLabel })).not.toBeInTheDocument();
    expect(screen.getByTestId('generation-cost')).toHaveTextContent('Costs 4 credits · you have 100');
    await user.type(screen.getByRole('textbox', { name: 'Prompt' }), 'a kite');
    await user.click(generate());
    await waitFor(() => expect(fakeMedia.submissions).toHaveLength(1));
    expect(fakeMedia.submissions[0]?.fields).not.toHaveProperty('num_images');
    expect(fakeMedia.submissions[0]?.fields).not.toHaveProperty('negative_prompt');
  });

  it('waits with the shortfall when the balance does not cover the whole run', async () => {
    fakeApi.credits = 10;
    await signedInAs(bob);
    renderApp('/ai-image/text-to-image');
    await waitFor(() => expect(screen.getByTestId('generation-cost')).toHaveTextContent('you have 10'), PAGE_LOAD);
    expect(generate()).toBeEnabled();
    await user.click(within(screen.getByRole('radiogroup', { name: TOOL_TEXTS.imagesLabel })).getByLabelText('4'));
    expect(generate()).toBeDisabled();
    expect(screen.getByText(TOOL_TEXTS.notEnoughCredits(16, 10))).toBeInTheDocument();
    await user.click(within(screen.getByRole('radiogroup', { name: TOOL_TEXTS.imagesLabel })).getByLabelText('2'));
    expect(generate()).toBeEnabled();
  });

  it('are filled in by Remix, checked, and sent only when they apply', () => {
    const spec = generationToolBySlug('text-to-image');
    if (!spec) throw new Error('no tool');
    const current = defaultFormValues(spec, [{ value: 'StableDiffusion3.5' }]);
    const fill = remixFill(spec, { args: { option: 'StableDiffusion3.5', num_images: 3, negative_prompt: 'fog' }, image_urls: [] }, [{ value: 'StableDiffusion3.5' }], current);
    expect(fill.values).toMatchObject({ num_images: '3', negative_prompt: 'fog' });
    // A job of one picture without a negative prompt resets both.
    expect(remixFill(spec, { args: { option: 'StableDiffusion3.5' }, image_urls: [] }, [{ value: 'StableDiffusion3.5' }], fill.values).values).toMatchObject({
      num_images: '1',
      negative_prompt: '',
    });
    const sd = { value: 'StableDiffusion3.5' } as Parameters<typeof generationFields>[1];
    const flux = { value: 'Flux1.1Pro' } as Parameters<typeof generationFields>[1];
    const values = { ...fill.values, prompt: 'a kite' };
    expect(generationFields(spec, sd, [], values)).toMatchObject({ num_images: '3', negative_prompt: 'fog' });
    expect(generationFields(spec, flux, [], values)).not.toHaveProperty('negative_prompt');
    expect(generationFormSchema(spec, sd, []).safeParse({ ...values, negative_prompt: 'x'.repeat(1001) }).success).toBe(false);
  });
});

/** An earlier run of two pictures (seeds 7 and 8) and one of one picture (seed 3). */
function addRuns() {
  addMedia({
    id: 'harbour',
    tool: 'text-to-image',
    status: 'success_image',
    option: 'Seedream',
    cost: 4,
    seed: 3,
    args: { prompt: 'a harbour', option: 'Seedream' },
    items: [picture('harbour', 3)],
  });
  addMedia({
    id: 'kites',
    tool: 'text-to-image',
    status: 'success_image',
    option: 'StableDiffusion3.5',
    cost: 8,
    seed: 7,
    args: { prompt: 'two kites', option: 'StableDiffusion3.5', num_images: 2, negative_prompt: 'birds' },
    items: [picture('kite-1', 7), picture('kite-2', 8)],
  });
}

describe('results of a run, Upscale and Compare', () => {
  it('shows each picture of a run with its own seed', async () => {
    await signedInAs(alice);
    addRuns();
    renderApp('/ai-image/text-to-image');
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(2), PAGE_LOAD);
    const [kites] = screen.getAllByRole('article');
    expect(within(kites as HTMLElement).getAllByText(/^Seed \d+$/).map((element) => element.textContent)).toEqual(['Seed 7', 'Seed 7', 'Seed 8']);
  });

  it('Upscale starts Edit Image’s Upscale job on that picture, at its price', async () => {
    await signedInAs(alice);
    addRuns();
    renderApp('/ai-image/text-to-image');
    const upscale = await screen.findByRole('button', { name: RESULT_ACTION_TEXTS.upscale.buttonLabel('1.2.StableDiffusion3.5', 4) }, PAGE_LOAD);
    await waitFor(() => expect(upscale).toBeEnabled());
    await user.click(upscale);
    await waitFor(() => expect(fakeMedia.submissions).toHaveLength(1));
    expect(fakeMedia.submissions[0]).toMatchObject({
      endpoint: 'image/edit-image',
      fields: { option: 'Upscale', image_url: 'http://localhost/api/files/kite-2.png' },
    });
    expect(await screen.findByText(RESULT_ACTION_TEXTS.upscale.started)).toBeInTheDocument();
    await waitFor(() => expect(fakeApi.credits).toBe(96));
  });

  it('Upscale waits with the reason when the balance is short', async () => {
    fakeApi.credits = 2;
    await signedInAs(bob);
    addRuns();
    renderApp('/ai-image/text-to-image');
    const upscale = await screen.findByRole('button', { name: RESULT_ACTION_TEXTS.upscale.buttonLabel('1.1.Seedream', 4) }, PAGE_LOAD);
    await waitFor(() => expect(screen.getByTestId('generation-cost')).toHaveTextContent('you have 2'));
    expect(upscale).toBeDisabled();
  });

  it('compares two marked pictures side by side: a keyboard slider, each with its prompt, model, seed and cost; Escape closes', async () => {
    await signedInAs(alice);
    addRuns();
    renderApp('/ai-image/text-to-image');
    const first = await screen.findByRole('checkbox', { name: RESULT_ACTION_TEXTS.compare.toggleLabel('1.2.StableDiffusion3.5') }, PAGE_LOAD);
    await user.click(first);
    expect(screen.getByText(RESULT_ACTION_TEXTS.compare.chosen(1))).toBeInTheDocument();
    expect(screen.getByRole('button', { name: RESULT_ACTION_TEXTS.compare.open })).toBeDisabled();
    await user.click(screen.getByRole('checkbox', { name: RESULT_ACTION_TEXTS.compare.toggleLabel('1.1.Seedream') }));
    // Two are marked: a third cannot be.
    expect(screen.getByRole('checkbox', { name: RESULT_ACTION_TEXTS.compare.toggleLabel('1.1.StableDiffusion3.5') })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: RESULT_ACTION_TEXTS.compare.open }));

    const dialog = await screen.findByRole('dialog', { name: RESULT_ACTION_TEXTS.compare.title });
    expect(within(dialog).getByRole('img', { name: '1.2.StableDiffusion3.5: two kites' })).toHaveAttribute('src', 'http://localhost/api/files/kite-2.png');
    expect(within(dialog).getByRole('img', { name: '1.1.Seedream: a harbour' })).toHaveAttribute('src', 'http://localhost/api/files/harbour.png');
    const kite = within(dialog).getByRole('region', { name: '1.2.StableDiffusion3.5' });
    expect(kite).toHaveTextContent('two kites');
    expect(kite).toHaveTextContent('Stable Diffusion 3.5');
    expect(kite).toHaveTextContent(`${RESULT_ACTION_TEXTS.compare.seed}8`);
    expect(kite).toHaveTextContent(RESULT_ACTION_TEXTS.compare.costOf(8, 2));
    const harbour = within(dialog).getByRole('region', { name: '1.1.Seedream' });
    expect(harbour).toHaveTextContent(`${RESULT_ACTION_TEXTS.compare.seed}3`);
    expect(harbour).toHaveTextContent('4 credits');

    const slider = within(dialog).getByRole('slider', { name: RESULT_ACTION_TEXTS.compare.splitLabel });
    expect(slider).toHaveAttribute('aria-valuenow', '50');
    slider.focus();
    await user.keyboard('{ArrowRight}{ArrowRight}');
    expect(slider).toHaveAttribute('aria-valuenow', '52');
    await user.keyboard('{Shift>}{ArrowLeft}{/Shift}');
    expect(slider).toHaveAttribute('aria-valuenow', '42');
    await user.keyboard('{End}');
    expect(slider).toHaveAttribute('aria-valuetext', RESULT_ACTION_TEXTS.compare.splitValue(100, '1.2.StableDiffusion3.5', '1.1.Seedream'));

    await user.click(within(dialog).getByText(RESULT_ACTION_TEXTS.compare.panes));
    await waitFor(() => expect(within(dialog).queryByRole('slider')).not.toBeInTheDocument());
    expect(within(dialog).getAllByRole('img')).toHaveLength(2);

    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    // The marks stay, to compare again.
    expect(first).toBeChecked();
  });
});
