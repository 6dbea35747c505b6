import { describe, expect, it } from 'vitest';
import { REMIX_TEXTS } from '@/config/history-texts';
import { defaultFormValues, generationFields, generationFormSchema, remixFill } from '@/screens/tools/generation-form';
import { SEED_MAX } from '@/config/limits';
import { generationToolBySlug } from '@/config/generation-tools';
import { addMedia, fakeMedia } from '../msw/media';
import { renderApp, screen, userEvent, waitFor } from '../test-utils';
import { PAGE_LOAD, setUpJobTests } from './generation-helpers';
import { alice, signedInAs } from './session-helpers';

const user = userEvent.setup();

setUpJobTests();

const generate = () => screen.getByRole('button', { name: 'Generate' });

describe('Remix: a tool page filled in from a past job (?remix=)', () => {
  it('fills in the model, prompt and aspect ratio of a Text to Image job, says so, and generates with them', async () => {
    addMedia({
      id: 'past-fox',
      tool: 'text-to-image',
      status: 'success_image',
      option: 'Flux1.1ProUltra',
      args: { prompt: 'a red fox in the snow', option: 'Flux1.1ProUltra', aspect_ratio: '16:9', async_mode: 'true' },
    });
    await signedInAs(alice);
    renderApp('/ai-image/text-to-image?remix=past-fox');

    expect(await screen.findByText(REMIX_TEXTS.filled, undefined, PAGE_LOAD)).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Prompt' })).toHaveValue('a red fox in the snow'));
    expect(screen.getByRole('combobox', { name: 'Model' })).toHaveValue('Flux 1.1 Pro Ultra · 8 credits');
    expect(screen.getByRole('combobox', { name: 'Aspect ratio' })).toHaveValue('16:9');

    await waitFor(() => expect(generate()).toBeEnabled(), PAGE_LOAD);
    await user.click(generate());
    await waitFor(() => expect(fakeMedia.submissions).toHaveLength(1));
    expect(fakeMedia.submissions[0]?.fields).toMatchObject({ option: 'Flux1.1ProUltra', prompt: 'a red fox in the snow', aspect_ratio: '16:9' });
  });

  it('puts the past job’s picture back in the picture input of Image to Image', async () => {
    const picture = 'http://localhost/api/files/cat.png?expires=1&signature=abc';
    addMedia({
      id: 'past-cat',
      tool: 'image-to-image',
      status: 'success_image',
      option: 'Seedream',
      args: { prompt: 'the cat as a watercolour', option: 'Seedream', image_url: picture },
    });
    await signedInAs(alice);
    renderApp('/ai-image/image-to-image?remix=past-cat');
    expect(await screen.findByText(REMIX_TEXTS.filled, undefined, PAGE_LOAD)).toBeInTheDocument();
    expect(await screen.findByRole('img', { name: 'Image: cat.png' })).toHaveAttribute('src', picture);
    await waitFor(() => expect(generate()).toBeEnabled(), PAGE_LOAD);
    await user.click(generate());
    await waitFor(() => expect(fakeMedia.submissions).toHaveLength(1));
    expect(fakeMedia.submissions[0]?.fields).toMatchObject({ image_url: picture, prompt: 'the cat as a watercolour' });
  });

  it('leaves the form as it was for a job of another tool, and says so', async () => {
    addMedia({ id: 'past-speech', tool: 'text-to-speech', kind: 'audio', status: 'success', args: { prompt: 'hello there' } });
    await signedInAs(alice);
    renderApp('/ai-image/text-to-image?remix=past-speech');
    expect(await screen.findByText(REMIX_TEXTS.otherTool('Text to Speech'), undefined, PAGE_LOAD)).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Prompt' })).toHaveValue('');
  });

  it('leaves the form as it was when the job cannot be read, and says why', async () => {
    await signedInAs(alice);
    renderApp('/ai-image/text-to-image?remix=gone');
    expect(await screen.findByText(REMIX_TEXTS.failed('Media not found'), undefined, PAGE_LOAD)).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Prompt' })).toHaveValue('');
  });
});

describe('remixFill', () => {
  it('fills the repeated pictures of Image Elements beyond the minimum, within the maximum', () => {
    const spec = generationToolBySlug('image-elements');
    if (!spec) throw new Error('no image-elements tool');
    const repeated = spec.images.find((input) => input.count);
    if (!repeated?.count) throw new Error('no repeated input');
    const urls = Array.from({ length: repeated.count.max + 2 }, (_, index) => `https://files/${index}.png`);
    const current = defaultFormValues(spec, [{ value: 'A' }, { value: 'B' }]);
    const fill = remixFill(spec, { args: { option: 'B', prompt: 'p', [repeated.field]: urls, option_unknown: 1 }, image_urls: [] }, [{ value: 'A' }, { value: 'B' }], current);
    expect(fill.values.option).toBe('B');
    expect(Object.values(fill.pictures)).toEqual(urls.slice(0, repeated.count.max));
    expect(fill.extra[repeated.field]).toHaveLength(repeated.count.max - repeated.count.min);
  });

  it('keeps the current model when the tool no longer offers the job’s', () => {
    const spec = generationToolBySlug('text-to-image');
    if (!spec) throw new Error('no text-to-image tool');
    const current = defaultFormValues(spec, [{ value: 'A' }]);
    const fill = remixFill(spec, { args: { option: 'Gone', aspect_ratio: 'nope', duration: 'x' }, image_urls: [] }, [{ value: 'A' }], current);
    expect(fill.values).toEqual(current);
  });
});

describe('the seed of an image tool (issue 21 item 7)', () => {
  const textToImage = generationToolBySlug('text-to-image');
  const speech = generationToolBySlug('text-to-speech');
  if (!textToImage || !speech) throw new Error('no tool');

  it('Remix fills in the job’s seed; a tool without seeds keeps its form as it was', () => {
    const current = defaultFormValues(textToImage, [{ value: 'A' }]);
    expect(current.seed).toBe('');
    expect(remixFill(textToImage, { args: { option: 'A' }, image_urls: [], seed: 1234 }, [{ value: 'A' }], current).values.seed).toBe('1234');
    expect(remixFill(textToImage, { args: { option: 'A' }, image_urls: [], seed: null }, [{ value: 'A' }], current).values.seed).toBe('');
    const speechValues = defaultFormValues(speech, [{ value: 'A' }]);
    expect(remixFill(speech, { args: {}, image_urls: [], seed: 5 }, [{ value: 'A' }], speechValues).values.seed).toBe('');
  });

  it('is sent when typed, left out when empty, and checked', () => {
    const values = { ...defaultFormValues(textToImage, [{ value: 'Seedream' }]), prompt: 'a kite' };
    expect(generationFields(textToImage, undefined, [], values)).not.toHaveProperty('seed');
    expect(generationFields(textToImage, undefined, [], { ...values, seed: ' 42 ' }).seed).toBe('42');
    const schema = generationFormSchema(textToImage, undefined, []);
    expect(schema.safeParse({ ...values, seed: '42' }).success).toBe(true);
    for (const bad of ['-1', '1.5', 'abc', String(SEED_MAX + 1)]) {
      const result = schema.safeParse({ ...values, seed: bad });
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.message).toBe(`Seed must be a whole number from 0 to ${SEED_MAX}, or empty.`);
    }
  });
});
