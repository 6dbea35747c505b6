import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { scaleToLongSide, sizeForRatio } from '../../../server/src/render/canvas-size.ts';
import { colourName } from '../../../server/src/render/picture-description.ts';
import { fitPixelText, pixelTextSvg, pixelTextWidth } from '../../../server/src/render/pixel-font.ts';
import { hashParts, mulberry32, seededRandom } from '../../../server/src/render/seeded-random.ts';
import { encodeWav, readWavInfo } from '../../../server/src/render/wav-writer.ts';

describe('seeded randomness', () => {
  it('repeats for the same seed and differs for another', () => {
    const first = seededRandom('a', 1);
    const again = seededRandom('a', 1);
    const other = seededRandom('a', 2);
    const draws = [first(), first(), first()];
    expect([again(), again(), again()]).toEqual(draws);
    expect(other()).not.toBe(draws[0]);
    for (const value of draws) expect(value).toBeGreaterThanOrEqual(0);
    for (const value of draws) expect(value).toBeLessThan(1);
  });

  it('mulberry32 matches its reference values', () => {
    const random = mulberry32(1);
    expect(Math.round(random() * 1e9)).toBe(627073941);
    expect(hashParts('x')).toBe(hashParts('x'));
    expect(hashParts('x', 'y')).not.toBe(hashParts('xy'));
  });
});

describe('WAV writer', () => {
  it('writes samples as 16-bit PCM and reads the header back', () => {
    const wav = encodeWav(Float32Array.from([0, 1, -1, 2, 0.5]), 8000);
    expect(wav.length).toBe(44 + 10);
    expect([wav.readInt16LE(44), wav.readInt16LE(46), wav.readInt16LE(48), wav.readInt16LE(50), wav.readInt16LE(52)]).toEqual([0, 32767, -32767, 32767, 16384]);
    expect(readWavInfo(wav)).toEqual({ audioFormat: 1, channels: 1, sampleRate: 8000, bitsPerSample: 16, dataBytes: 10, durationSeconds: 5 / 8000 });
  });

  it('skips other chunks and refuses what is not a WAV', () => {
    const plain = encodeWav(new Float32Array(100), 1000);
    const list = Buffer.alloc(12);
    list.write('LIST', 0, 'ascii');
    list.writeUInt32LE(4, 4);
    const withList = Buffer.concat([plain.subarray(0, 36), list, plain.subarray(36)]);
    expect(readWavInfo(withList)?.durationSeconds).toBe(0.1);
    expect(readWavInfo(Buffer.from('RIFF\u0000\u0000\u0000\u0000WEBPVP8 '))).toBeNull();
  });
});

describe('canvas sizes', () => {
  it('keeps the first input ratio for Origin and is square otherwise', () => {
    expect(sizeForRatio('Origin', { width: 1000, height: 500 })).toEqual({ width: 768, height: 384 });
    expect(sizeForRatio(undefined, null)).toEqual({ width: 768, height: 768 });
    expect(sizeForRatio('4:3', { width: 10, height: 1000 })).toEqual({ width: 896, height: 672 });
    expect(scaleToLongSide({ width: 3, height: 1 }, 100)).toEqual({ width: 100, height: 34 });
  });
});

describe('colour names', () => {
  it.each([
    [[220, 20, 20], 'red'],
    [[20, 40, 200], 'blue'],
    [[30, 160, 40], 'green'],
    [[240, 130, 20], 'warm orange'],
    [[250, 250, 250], 'white'],
    [[5, 5, 5], 'black'],
    [[128, 128, 128], 'grey'],
    [[120, 60, 20], 'brown'],
    [[240, 220, 40], 'golden yellow'],
    [[140, 40, 200], 'purple'],
  ] as const)('%j is %s', ([r, g, b], name) => {
    expect(colourName(r, g, b)).toBe(name);
  });
});

describe('pixel font', () => {
  it('draws text without any font installed and fits it to a width', async () => {
    const text = pixelTextSvg('Kinora', { x: 0, y: 0, scale: 2, fill: '#000' });
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${pixelTextWidth('Kinora') * 2}" height="14"><rect width="100%" height="100%" fill="#fff"/>${text}</svg>`;
    const { channels } = await sharp(Buffer.from(svg)).stats();
    expect(channels[0]?.min).toBe(0);
    expect(channels[0]?.max).toBe(255);
    expect(fitPixelText('a long prompt that will not fit', 59)).toBe('a long...');
    expect(fitPixelText('short', 59)).toBe('short');
  });
});
