import { describe, expect, it } from 'vitest';
import type { MediaKind } from '@/config/enums';
import { acceptedExtensions, validateUpload } from '@/lib/upload-validation';

const IMAGE_LIST = '.png, .jpg, .svg, .heif, .webp, .tif, .tiff, .bmp, .avif, .jfif, .psd, .jpeg, .heic';

describe('validateUpload: types (SPEC §5)', () => {
  it.each<[string, string, MediaKind]>([
    ['photo.png', 'image/png', 'image'],
    ['photo.JPG', 'image/jpeg', 'image'],
    ['drawing.svg', 'image/svg+xml', 'image'],
    ['a.heif', '', 'image'],
    ['a.webp', 'image/webp', 'image'],
    ['a.tif', 'image/tiff', 'image'],
    ['a.TIFF', 'image/tiff', 'image'],
    ['a.bmp', 'image/bmp', 'image'],
    ['a.avif', 'image/avif', 'image'],
    ['a.jfif', 'image/jpeg', 'image'],
    ['layers.psd', 'image/vnd.adobe.photoshop', 'image'],
    ['photo.jpeg', 'image/jpeg', 'image'],
    ['photo.HEIC', 'image/heic', 'image'],
    // Browsers often give a HEIC photo no type at all.
    ['photo.heic', '', 'image'],
    ['photo.jpeg', '', 'image'],
    ['clip.mp4', 'video/mp4', 'video'],
    ['clip.MP4', '', 'video'],
    ['song.mp3', 'audio/mpeg', 'audio'],
    ['song.wav', 'audio/wav', 'audio'],
    ['song.ogg', 'audio/ogg', 'audio'],
  ])('accepts %s (%s) as %s', (name, type, kind) => {
    expect(validateUpload({ name, type, size: 1000 }, kind)).toEqual({ ok: true, safeName: name });
  });

  it.each<[string, string, MediaKind, string]>([
    ['clip.gif', 'image/gif', 'image', `"clip.gif" is not an accepted image. Accepted: ${IMAGE_LIST}.`],
    // .jpeg and .heic count only with their own MIME type.
    ['photo.jpeg', 'image/png', 'image', `"photo.jpeg" is not an accepted image. Accepted: ${IMAGE_LIST}.`],
    ['photo.heic', 'image/png', 'image', `"photo.heic" is not an accepted image. Accepted: ${IMAGE_LIST}.`],
    ['no extension', 'image/jpeg', 'image', `"no_extension" is not an accepted image. Accepted: ${IMAGE_LIST}.`],
    ['movie.mov', 'video/quicktime', 'video', '"movie.mov" is not an accepted video. Accepted: .mp4.'],
    ['song.flac', 'audio/flac', 'audio', '"song.flac" is not an accepted audio file. Accepted: .mp3, .wav, .ogg.'],
    ['photo.png', 'image/png', 'audio', '"photo.png" is not an accepted audio file. Accepted: .mp3, .wav, .ogg.'],
  ])('refuses %s (%s) as %s', (name, type, kind, message) => {
    expect(validateUpload({ name, type, size: 1000 }, kind)).toEqual({ ok: false, message });
  });

  it('names the file by its safe name', () => {
    expect(validateUpload({ name: 'my holiday (1).gif', type: 'image/gif', size: 5 }, 'image')).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^"my_holiday__1_.gif" is not an accepted image\./) as unknown,
    });
    expect(validateUpload({ name: 'my holiday (1).png', type: 'image/png', size: 5 }, 'image')).toEqual({
      ok: true,
      safeName: 'my_holiday__1_.png',
    });
  });
});

describe('validateUpload: sizes (SPEC §5: 30 000 000 / 100 000 000 / 50 000 000 bytes)', () => {
  it.each<[MediaKind, string, number]>([
    ['image', 'a.png', 30_000_000],
    ['video', 'a.mp4', 100_000_000],
    ['audio', 'a.mp3', 50_000_000],
  ])('%s: the limit and one byte less pass, one byte more does not', (kind, name, limit) => {
    expect(validateUpload({ name, type: '', size: limit - 1 }, kind).ok).toBe(true);
    expect(validateUpload({ name, type: '', size: limit }, kind).ok).toBe(true);
    expect(validateUpload({ name, type: '', size: limit + 1 }, kind).ok).toBe(false);
  });

  it.each<[string, MediaKind, number, string]>([
    ['big.png', 'image', 31_200_000, '"big.png" is 31.2 MB; images can be at most 30 MB.'],
    ['big.png', 'image', 30_000_001, '"big.png" is 30,000,001 bytes; images can be at most 30 MB.'],
    ['long.mp4', 'video', 150_000_000, '"long.mp4" is 150 MB; videos can be at most 100 MB.'],
    ['long.wav', 'audio', 50_060_000, '"long.wav" is 50.1 MB; audio files can be at most 50 MB.'],
  ])('%s of %i bytes is refused with the limit named', (name, kind, size, message) => {
    expect(validateUpload({ name, type: '', size }, kind)).toEqual({ ok: false, message });
  });

  it('refuses an empty file', () => {
    expect(validateUpload({ name: 'a.png', type: 'image/png', size: 0 }, 'image')).toEqual({
      ok: false,
      message: '"a.png" is empty.',
    });
  });

  it('checks the type before the size', () => {
    expect(validateUpload({ name: 'a.gif', type: 'image/gif', size: 99_000_000 }, 'image')).toMatchObject({
      message: expect.stringContaining('is not an accepted image') as unknown,
    });
  });
});

describe('acceptedExtensions', () => {
  it('lists SPEC §5 extensions, then the plausible ones', () => {
    expect(acceptedExtensions('image').join(', ')).toBe(IMAGE_LIST);
    expect(acceptedExtensions('video')).toEqual(['.mp4']);
    expect(acceptedExtensions('audio')).toEqual(['.mp3', '.wav', '.ogg']);
  });
});
