import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { UploadCheck } from '../../../server/src/render/provider.ts';
import { checkUpload, sniffType } from '../../../server/src/render/uploads.ts';
import { encodeWav } from '../../../server/src/render/wav-writer.ts';

const picture = () => sharp({ create: { width: 64, height: 48, channels: 3, background: '#3366cc' } });

/** An ISO-BMFF `ftyp` box with the given major and compatible brands, then some padding. */
function ftyp(major: string, ...compatible: string[]): Buffer {
  const size = 16 + compatible.length * 4;
  const box = Buffer.alloc(size);
  box.writeUInt32BE(size, 0);
  box.write('ftyp', 4, 'latin1');
  box.write(major, 8, 'latin1');
  compatible.forEach((brand, index) => box.write(brand, 16 + index * 4, 'latin1'));
  return Buffer.concat([box, Buffer.alloc(64)]);
}

/** A 24-bit uncompressed BMP, bottom-up, filled with one colour. */
function bmp(width: number, height: number, [r, g, b]: [number, number, number]): Buffer {
  const rowBytes = Math.ceil((width * 3) / 4) * 4;
  const data = Buffer.alloc(54 + rowBytes * height);
  data.write('BM', 0, 'latin1');
  data.writeUInt32LE(data.length, 2);
  data.writeUInt32LE(54, 10);
  data.writeUInt32LE(40, 14);
  data.writeInt32LE(width, 18);
  data.writeInt32LE(height, 22);
  data.writeUInt16LE(1, 26);
  data.writeUInt16LE(24, 28);
  for (let row = 0; row < height; row += 1) {
    for (let column = 0; column < width; column += 1) {
      const offset = 54 + row * rowBytes + column * 3;
      data[offset] = b;
      data[offset + 1] = g;
      data[offset + 2] = r;
    }
  }
  return data;
}

function psd(width: number, height: number): Buffer {
  const data = Buffer.alloc(200);
  data.write('8BPS', 0, 'latin1');
  data.writeUInt16BE(1, 4);
  data.writeUInt16BE(3, 12);
  data.writeUInt32BE(height, 14);
  data.writeUInt32BE(width, 18);
  data.writeUInt16BE(8, 22);
  data.writeUInt16BE(3, 24);
  return data;
}

const id3Mp3 = Buffer.concat([Buffer.from('ID3\u0004\u0000\u0000\u0000\u0000\u0000\u0000', 'latin1'), Buffer.from([0xff, 0xfb, 0x90, 0x64]), Buffer.alloc(400)]);
const bareMp3 = Buffer.concat([Buffer.from([0xff, 0xfb, 0x90, 0x64]), Buffer.alloc(400)]);
const ogg = Buffer.concat([Buffer.from('OggS\u0000\u0002', 'latin1'), Buffer.alloc(100)]);
const svg = Buffer.from(
  '<?xml version="1.0"?>\n<!-- a drawing -->\n<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><script>alert(1)</script><rect width="40" height="20" fill="#c00"/></svg>',
);

function expectAccepted(check: UploadCheck): Extract<UploadCheck, { ok: true }> {
  if (!check.ok) throw new Error(`refused: ${check.reason}`);
  return check;
}

function expectRefused(check: UploadCheck): string {
  if (check.ok) throw new Error(`accepted as ${check.contentType}`);
  return check.reason;
}

async function expectJpegThumbnail(check: Extract<UploadCheck, { ok: true }>): Promise<void> {
  expect(check.thumbnail?.contentType).toBe('image/jpeg');
  const metadata = await sharp(check.thumbnail?.data).metadata();
  expect(metadata.format).toBe('jpeg');
  expect(Math.max(metadata.width ?? 0, metadata.height ?? 0)).toBeLessThanOrEqual(320);
}

describe('sniffType', () => {
  it.each([
    ['PNG', () => picture().png().toBuffer(), 'image/png'],
    ['JPEG', () => picture().jpeg().toBuffer(), 'image/jpeg'],
    ['WebP', () => picture().webp().toBuffer(), 'image/webp'],
    ['TIFF', () => picture().tiff().toBuffer(), 'image/tiff'],
    ['AVIF', () => picture().avif().toBuffer(), 'image/avif'],
    ['GIF', () => picture().gif().toBuffer(), 'image/gif'],
    ['SVG', async () => svg, 'image/svg+xml'],
    ['BMP', async () => bmp(4, 4, [0, 0, 0]), 'image/bmp'],
    ['PSD', async () => psd(4, 4), 'image/vnd.adobe.photoshop'],
    ['HEIC', async () => ftyp('heic', 'mif1', 'heic'), 'image/heic'],
    ['HEIF', async () => ftyp('mif1', 'mif1', 'miaf'), 'image/heif'],
    ['WAV', async () => encodeWav(new Float32Array(10)), 'audio/wav'],
    ['MP3 with ID3', async () => id3Mp3, 'audio/mpeg'],
    ['MP3 frame', async () => bareMp3, 'audio/mpeg'],
    ['Ogg', async () => ogg, 'audio/ogg'],
    ['FLAC', async () => Buffer.from('fLaC\u0000\u0000\u0000\u0022', 'latin1'), 'audio/flac'],
    ['MP4', async () => ftyp('isom', 'isom', 'iso2', 'avc1', 'mp41'), 'video/mp4'],
    ['MP4 (mp42)', async () => ftyp('mp42', 'mp42', 'isom'), 'video/mp4'],
    ['QuickTime', async () => ftyp('qt  ', 'qt  '), 'video/quicktime'],
    ['text', async () => Buffer.from('hello world, not a picture'), null],
    ['HTML', async () => Buffer.from('<html><body><svg></svg></body></html>'), null],
    ['empty', async () => Buffer.alloc(0), null],
  ])('detects %s', async (_name, make, expected) => {
    expect(await sniffType(await make())).toBe(expected);
  });
});

describe('checkUpload: accepted pictures', () => {
  it('accepts a PNG as it is, with a thumbnail and its size', async () => {
    const check = expectAccepted(await checkUpload('image', await picture().png().toBuffer(), 'photo.png', 'image/png'));
    expect(check).toMatchObject({ contentType: 'image/png', display: null, width: 64, height: 48 });
    await expectJpegThumbnail(check);
  });

  it('accepts JPEG named .jpg, .jpeg and .jfif, and WebP', async () => {
    const jpeg = await picture().jpeg().toBuffer();
    for (const name of ['a.jpg', 'a.JPEG', 'a.jfif']) {
      expect(expectAccepted(await checkUpload('image', jpeg, name, 'image/jpeg')).contentType).toBe('image/jpeg');
    }
    const webp = expectAccepted(await checkUpload('image', await picture().webp().toBuffer(), 'a.webp', 'image/webp'));
    expect(webp).toMatchObject({ contentType: 'image/webp', display: null });
  });

  it('makes a browser copy of TIFF, AVIF and BMP', async () => {
    const cases = [
      [await picture().tiff().toBuffer(), 'scan.tif', 'image/tiff'],
      [await picture().avif().toBuffer(), 'photo.avif', 'image/avif'],
      [bmp(30, 20, [200, 10, 10]), 'paint.bmp', 'image/bmp'],
    ] as const;
    for (const [data, name, type] of cases) {
      const check = expectAccepted(await checkUpload('image', data, name, ''));
      expect(check.contentType).toBe(type);
      expect(check.display?.contentType).toMatch(/^image\/(png|jpeg)$/);
      expect((await sharp(check.display?.data).metadata()).format).toMatch(/^(png|jpeg)$/);
      await expectJpegThumbnail(check);
    }
    const painted = expectAccepted(await checkUpload('image', bmp(30, 20, [200, 10, 10]), 'paint.bmp', ''));
    expect([painted.width, painted.height]).toEqual([30, 20]);
    const { dominant } = await sharp(painted.display?.data).stats();
    expect(dominant.r).toBeGreaterThan(150);
  });

  it('rasterises SVG to PNG (never served as SVG)', async () => {
    const check = expectAccepted(await checkUpload('image', svg, 'logo.svg', 'image/svg+xml'));
    expect(check.contentType).toBe('image/svg+xml');
    expect(check.display?.contentType).toBe('image/png');
    const metadata = await sharp(check.display?.data).metadata();
    expect(metadata.format).toBe('png');
    expect([check.width, check.height]).toEqual([metadata.width, metadata.height]);
    // Small drawings are rasterised larger (up to 16× their size, aiming at 1024 px).
    expect([check.width, check.height]).toEqual([640, 320]);
    await expectJpegThumbnail(check);
  });

  it('accepts PSD and HEIC it cannot decode, with a placeholder thumbnail', async () => {
    const layered = expectAccepted(await checkUpload('image', psd(300, 200), 'layers.psd', 'image/vnd.adobe.photoshop'));
    expect(layered).toMatchObject({ contentType: 'image/vnd.adobe.photoshop', display: null, width: 300, height: 200 });
    await expectJpegThumbnail(layered);
    for (const name of ['phone.heic', 'phone.heif']) {
      const heic = expectAccepted(await checkUpload('image', ftyp('heic', 'mif1', 'heic'), name, 'image/heic'));
      expect(heic).toMatchObject({ contentType: 'image/heic', display: null });
      await expectJpegThumbnail(heic);
    }
  });

  it('accepts a PNG padded after its end, and refuses one that is only a header (issue 17: decode-checked)', async () => {
    const png = await picture().png().toBuffer();
    const headerOnly = Buffer.concat([png.subarray(0, 33), Buffer.alloc(5000)]);
    expect(await checkUpload('image', headerOnly, 'big.png', 'image/png')).toMatchObject({ ok: false, status: 415 });
    const padded = expectAccepted(await checkUpload('image', Buffer.concat([png, Buffer.alloc(5000)]), 'big.png', 'image/png'));
    expect(padded).toMatchObject({ width: 64, height: 48 });
  });

  it('accepts a PNG named .jpg (the extension is on the list; the real type is kept)', async () => {
    const check = expectAccepted(await checkUpload('image', await picture().png().toBuffer(), 'photo.jpg', 'image/jpeg'));
    expect(check.contentType).toBe('image/png');
  });
});

describe('checkUpload: accepted audio and video', () => {
  it('accepts WAV with its duration, MP3 and Ogg', async () => {
    const wav = expectAccepted(await checkUpload('audio', encodeWav(new Float32Array(22_050 * 2)), 'voice.wav', 'audio/wav'));
    expect(wav).toMatchObject({ contentType: 'audio/wav', display: null, thumbnail: null, durationSeconds: 2 });
    expect(expectAccepted(await checkUpload('audio', id3Mp3, 'song.mp3', 'audio/mpeg')).contentType).toBe('audio/mpeg');
    expect(expectAccepted(await checkUpload('audio', bareMp3, 'song.mp3', 'audio/mpeg')).contentType).toBe('audio/mpeg');
    expect(expectAccepted(await checkUpload('audio', ogg, 'song.ogg', 'audio/ogg')).contentType).toBe('audio/ogg');
  });

  it('reads the duration of a padded WAV from the bytes present', async () => {
    const header = encodeWav(new Float32Array(0));
    header.writeUInt32LE(50_000_000, 40);
    const padded = Buffer.concat([header, Buffer.alloc(22_050 * 2 * 3)]);
    expect(expectAccepted(await checkUpload('audio', padded, 'long.wav', 'audio/wav')).durationSeconds).toBe(3);
  });

  it('accepts MP4 video', async () => {
    const check = expectAccepted(await checkUpload('video', ftyp('isom', 'isom', 'mp41'), 'clip.mp4', 'video/mp4'));
    expect(check).toMatchObject({ contentType: 'video/mp4', display: null, thumbnail: null });
  });
});

describe('checkUpload: refused files', () => {
  it('refuses GIF', async () => {
    const reason = expectRefused(await checkUpload('image', await picture().gif().toBuffer(), 'clip.gif', 'image/gif'));
    expect(reason).toBe('"clip.gif" is a GIF picture. Accepted: .png, .jpg, .svg, .heif, .webp, .tif, .tiff, .bmp, .avif, .jfif, .psd.');
  });

  it('refuses text renamed .png', async () => {
    const reason = expectRefused(await checkUpload('image', Buffer.from('not really a picture\n'), 'fake.png', 'image/png'));
    expect(reason).toMatch(/^"fake\.png" is plain text \(sent as image\/png\), not a picture\. Accepted: \.png/);
  });

  it('refuses a file of the wrong kind', async () => {
    expect(expectRefused(await checkUpload('audio', await picture().png().toBuffer(), 'photo.png', 'image/png'))).toMatch(
      /^"photo\.png" is a PNG picture, not an audio file\. Accepted: \.mp3, \.wav, \.ogg\.$/,
    );
    expect(expectRefused(await checkUpload('image', encodeWav(new Float32Array(10)), 'sound.wav', 'audio/wav'))).toMatch(/is a WAV audio file, not a picture/);
    expect(expectRefused(await checkUpload('video', id3Mp3, 'song.mp4', 'video/mp4'))).toMatch(/is an MP3 audio file, not a video/);
  });

  it('refuses a wrong or missing extension', async () => {
    const png = await picture().png().toBuffer();
    expect(expectRefused(await checkUpload('image', png, 'photo.exe', 'image/png'))).toMatch(/^"photo\.exe" has the extension \.exe\./);
    expect(expectRefused(await checkUpload('image', png, 'photo.jpeg', 'image/png'))).toMatch(/has the extension \.jpeg/);
    expect(expectRefused(await checkUpload('image', png, 'photo', 'image/png'))).toMatch(/^"photo" has no file extension\./);
    expect(expectRefused(await checkUpload('audio', encodeWav(new Float32Array(10)), 'voice.flac', 'audio/wav'))).toMatch(/extension \.flac/);
  });

  it('refuses audio and video formats outside the list, whatever their name', async () => {
    expect(expectRefused(await checkUpload('audio', Buffer.from('fLaC\u0000\u0000\u0000\u0022', 'latin1'), 'song.ogg', 'audio/ogg'))).toMatch(/is a FLAC audio file\./);
    expect(expectRefused(await checkUpload('video', ftyp('qt  ', 'qt  '), 'clip.mp4', 'video/mp4'))).toMatch(/is a QuickTime video\./);
  });

  it('refuses an SVG that cannot be drawn', async () => {
    const broken = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect');
    expect(expectRefused(await checkUpload('image', broken, 'broken.svg', 'image/svg+xml'))).toMatch(/could not be drawn/);
  });
});
