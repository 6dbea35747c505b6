import { describe, expect, it } from 'vitest';
import { renderSeed } from '../../../server/src/jobs/pipelines.ts';

/**
 * The render seed is the request itself (tool, model, fields, inputs): equal requests give equal
 * seeds whatever order their fields came in, by code unit rather than the locale's collation.
 */

const parallax = {
  tool: 'parallax-motion',
  option: 'Parallax',
  args: {
    creation_type: 'parallax-motion',
    option: 'Parallax',
    prompt: 'A quiet harbour at dawn',
    prompt_strength: 0.5,
    pose_preset: [
      { motion_type: 'Parallax', prompt: '', quantity: 2, motion_amount: 5, motion_length: 2, loop: 1, model: 'Parallax', camera_path: 'HorizontalArc' },
    ],
    cut_inputs: [],
  },
  inputs: [{ field: 'image_urls', file_id: 'f-1' }],
};

/** The same object with every key list reversed. */
function reversed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversed);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).reverse().map(([key, item]) => [key, reversed(item)]));
  return value;
}

describe('renderSeed', () => {
  it('keeps the seed a job of usual fields had before (the hand-written sort gave the same bytes)', () => {
    expect(renderSeed(parallax)).toBe('9b4de29d3638bca6b0eb2655854f8b55ff66fafc41e6453882ff5d63c19e9bd1');
  });

  it('does not depend on the order of the fields', () => {
    expect(renderSeed(reversed(parallax) as typeof parallax)).toBe(renderSeed(parallax));
  });

  it('is the same for keys differing only in case or an underscore, sent in any order, and tells their values apart', () => {
    const mixed = { ...parallax, args: { b: 1, B: 2, a_1: 3, a1: 4 } };
    const swapped = { ...parallax, args: { a1: 4, a_1: 3, B: 2, b: 1 } };
    expect(renderSeed(mixed)).toBe(renderSeed(swapped));
    expect(renderSeed(mixed)).not.toBe(renderSeed({ ...parallax, args: { b: 2, B: 1, a_1: 3, a1: 4 } }));
  });

  it('changes with any field of the request', () => {
    expect(renderSeed({ ...parallax, args: { ...parallax.args, prompt: 'A loud harbour at dusk' } })).not.toBe(renderSeed(parallax));
    expect(renderSeed({ ...parallax, inputs: [{ field: 'image_urls', file_id: 'f-2' }] })).not.toBe(renderSeed(parallax));
  });
});
