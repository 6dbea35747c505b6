import { describe, expect, it } from 'vitest';
import type { FinetuneKind } from '@/config/finetune';
import {
  COUNT_ERROR_KEY,
  countText,
  finetuneFields,
  finetuneFormSchema,
  pairInputKey,
  pairOutputKey,
  type FinetuneFormValues,
  type FinetuneSlots,
} from '@/screens/finetune/finetune-form-rules';
import { FINETUNE_KINDS } from '@/config/finetune';

const url = (name: string) => `http://localhost/api/files/${name}.png`;

/** `filled` uploaded pictures in `places` picture places (the rest empty). */
function pictureForm(kind: FinetuneKind, filled: number, places = Math.max(filled, 1)) {
  const slots: FinetuneSlots = { images: Array.from({ length: places }, (_, index) => `p${index + 1}`), pairs: ['pair1'] };
  const pictures: Record<string, string> = {};
  for (let index = 0; index < filled; index += 1) pictures[`p${index + 1}`] = url(`p${index + 1}`);
  const values: FinetuneFormValues = { kind, name: 'My style', trigger_word: '', prompt: '', pictures };
  return { slots, values };
}

/** `complete` pairs with both pictures, plus `half` pairs with only an input. */
function pairForm(complete: number, { half = 0, prompt = 'turn photos into sketches' } = {}) {
  const count = Math.max(complete + half, 1);
  const slots: FinetuneSlots = { images: ['p1'], pairs: Array.from({ length: count }, (_, index) => `pair${index + 1}`) };
  const pictures: Record<string, string> = {};
  slots.pairs.forEach((id, index) => {
    if (index < complete + half) pictures[pairInputKey(id)] = url(`in${index + 1}`);
    if (index < complete) pictures[pairOutputKey(id)] = url(`out${index + 1}`);
  });
  const values: FinetuneFormValues = { kind: 'FluxKontextFinetune', name: 'Sketchify', trigger_word: '', prompt, pictures };
  return { slots, values };
}

/** The messages of the form's issues, by path ("pictures.count", "prompt", …). */
function issues(slots: FinetuneSlots, values: FinetuneFormValues): Record<string, string> {
  const result = finetuneFormSchema(slots).safeParse(values);
  if (result.success) return {};
  return Object.fromEntries(result.error.issues.map((issue) => [issue.path.join('.'), issue.message]));
}

describe('LoRA Finetune form rules (SPEC §5 fine-tune image counts)', () => {
  it.each([
    ['FluxFinetune', 4, 'Add 5 to 20 pictures.'],
    ['FluxFinetune', 5, null],
    ['FluxFinetune', 20, null],
    ['FluxFinetune', 21, 'Add 5 to 20 pictures.'],
    ['FluxProFinetune', 0, 'Add 1 to 10 pictures.'],
    ['FluxProFinetune', 1, null],
    ['FluxProFinetune', 10, null],
    ['FluxProFinetune', 11, 'Add 1 to 10 pictures.'],
  ] as const)('%s with %i pictures: %s', (kind, count, message) => {
    const { slots, values } = pictureForm(kind, count);
    expect(issues(slots, values)[`pictures.${COUNT_ERROR_KEY}`] ?? null).toBe(message);
  });

  it('counts only the places with an upload', () => {
    const { slots, values } = pictureForm('FluxFinetune', 4, 8);
    expect(issues(slots, values)).toEqual({ [`pictures.${COUNT_ERROR_KEY}`]: 'Add 5 to 20 pictures.' });
    expect(countText(FINETUNE_KINDS.FluxFinetune, slots, values.pictures)).toBe('4 of 5–20 pictures');
    const five = pictureForm('FluxFinetune', 5, 8);
    expect(issues(five.slots, five.values)).toEqual({});
    expect(countText(FINETUNE_KINDS.FluxFinetune, five.slots, five.values.pictures)).toBe('5 of 5–20 pictures');
  });

  it.each([
    [0, 'Add 1 to 20 pairs.'],
    [1, null],
    [10, null],
    [20, null],
    [21, 'Add 1 to 20 pairs.'],
  ] as const)('Flux Kontext with %i complete pairs: %s', (count, message) => {
    const { slots, values } = pairForm(count);
    expect(issues(slots, values)[`pictures.${COUNT_ERROR_KEY}`] ?? null).toBe(message);
  });

  it('asks for the missing picture of a half-filled pair, and counts only complete pairs', () => {
    const { slots, values } = pairForm(2, { half: 1 });
    expect(issues(slots, values)).toEqual({ [`pictures.${pairOutputKey('pair3')}`]: 'Add both pictures of pair 3.' });
    expect(countText(FINETUNE_KINDS.FluxKontextFinetune, slots, values.pictures)).toBe('2 of 1–20 pairs');
    // An output without its input is named on the input.
    const onlyOutput = { ...values, pictures: { ...values.pictures, [pairInputKey('pair3')]: '', [pairOutputKey('pair3')]: url('out3') } };
    expect(issues(slots, onlyOutput)).toEqual({ [`pictures.${pairInputKey('pair3')}`]: 'Add both pictures of pair 3.' });
  });

  it('needs the prompt for Flux Kontext only', () => {
    const kontext = pairForm(1, { prompt: '   ' });
    expect(issues(kontext.slots, kontext.values)).toEqual({ prompt: 'Describe what the pairs teach' });
    const flux = pictureForm('FluxFinetune', 5);
    expect(issues(flux.slots, { ...flux.values, prompt: '' })).toEqual({});
  });

  it.each([
    ['', 'name', 'Enter a name for your model'],
    ['   ', 'name', 'Enter a name for your model'],
    ['x'.repeat(40), 'name', null],
    ['x'.repeat(41), 'name', 'The name can be at most 40 characters.'],
  ] as const)('name %j: %s', (name, path, message) => {
    const { slots, values } = pictureForm('FluxFinetune', 5);
    expect(issues(slots, { ...values, name })[path] ?? null).toBe(message);
  });

  it.each([
    ['', null],
    ['x'.repeat(30), null],
    ['x'.repeat(31), 'The trigger word can be at most 30 characters.'],
  ] as const)('trigger word of %#: %s', (triggerWord, message) => {
    const { slots, values } = pictureForm('FluxFinetune', 5);
    expect(issues(slots, { ...values, trigger_word: triggerWord }).trigger_word ?? null).toBe(message);
  });
});

describe('the fields of POST finetune', () => {
  it('sends the pictures in order, skipping empty places, and the trigger word when given', () => {
    const { slots, values } = pictureForm('FluxProFinetune', 3, 5);
    const fields = finetuneFields(
      { ...slots, images: ['p3', 'p4', 'p1', 'p2', 'p5'] },
      { ...values, name: '  Portrait  ', trigger_word: ' me ', prompt: 'ignored' },
    );
    expect(fields).toEqual({
      option: 'FluxProFinetune',
      name: 'Portrait',
      trigger_word: 'me',
      image_urls: [url('p3'), url('p1'), url('p2')],
    });
  });

  it('sends Kontext pairs alternating input, output, with the prompt; no trigger word when empty', () => {
    const { slots, values } = pairForm(2);
    expect(finetuneFields(slots, values)).toEqual({
      option: 'FluxKontextFinetune',
      name: 'Sketchify',
      prompt: 'turn photos into sketches',
      image_urls: [url('in1'), url('out1'), url('in2'), url('out2')],
    });
  });
});
