import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';
import type { MediaKind } from '../../../src/config/enums.ts';
import { UPLOAD_RULES } from '../../../src/config/limits.ts';
import { jpegThumbnail, THUMBNAIL_LONG_SIDE } from './image-render.ts';
import { decodePicture, type Picture, pictureToSharp } from './picture-decode.ts';
import { pixelTextSvg, pixelTextWidth, PIXEL_TEXT_HEIGHT } from './pixel-font.ts';
import type { RenderedFile, UploadCheck } from './provider.ts';
import { readWavInfo } from './wav-writer.ts';

/**
 * Checks an upload by its bytes (SPEC §5 accepted uploads; the server checks again what the web
 * app checked, never trusting the name or the declared type alone) and prepares what the
 * browser can show: a PNG/JPEG copy of pictures it cannot display and a JPEG thumbnail.
 *
 * How SPEC §5's list is read (UPLOAD_RULES in src/config/limits.ts): it is a file-picker "accept"
 * map, MIME type → extensions, in which `image/jpeg` carries the extensions of every picture
 * format the product takes. So the accepted picture formats are the ones those extensions name
 * (PNG, JPEG, SVG, HEIF, WebP, TIFF, BMP, AVIF) plus the MIME keys given on their own (HEIC, PSD);
 * audio is `audio/*` restricted to the formats of .mp3 .wav .ogg; video is MP4. A file is accepted
 * when its detected format is one of those for the kind AND its extension is in the list or is
 * the detected format's own usual extension (.jpeg for JPEG, .heic for HEIC/HEIF), which the list
 * leaves out although pickers and cameras use them. A format outside the list (GIF, FLAC, MOV…)
 * is refused whatever its name; a file whose bytes match no format (text renamed .png) too.
 */

interface FormatInfo {
  kind: MediaKind | 'other';
  /** How the reason names it: "is a GIF picture". */
  label: string;
  extensions: readonly string[];
  /** MIME keys of UPLOAD_RULES that name this format directly. */
  aliases?: readonly string[];
  /** Browsers show it as it is (no display copy needed). */
  browserImage?: boolean;
}

const FORMATS: Readonly<Record<string, FormatInfo>> = {
  'image/png': { kind: 'image', label: 'a PNG picture', extensions: ['.png'], browserImage: true },
  'image/jpeg': { kind: 'image', label: 'a JPEG picture', extensions: ['.jpg', '.jpeg', '.jfif'], browserImage: true },
  'image/webp': { kind: 'image', label: 'a WebP picture', extensions: ['.webp'], browserImage: true },
  'image/gif': { kind: 'image', label: 'a GIF picture', extensions: ['.gif'], browserImage: true },
  'image/svg+xml': { kind: 'image', label: 'an SVG drawing', extensions: ['.svg'] },
  'image/tiff': { kind: 'image', label: 'a TIFF picture', extensions: ['.tif', '.tiff'] },
  'image/bmp': { kind: 'image', label: 'a BMP picture', extensions: ['.bmp'] },
  'image/avif': { kind: 'image', label: 'an AVIF picture', extensions: ['.avif'] },
  'image/heic': { kind: 'image', label: 'a HEIC picture', extensions: ['.heic', '.heif'], aliases: ['image/heic'] },
  'image/heif': { kind: 'image', label: 'a HEIF picture', extensions: ['.heif', '.heic'], aliases: ['image/heic'] },
  // The registered type; SPEC's accept list calls it image/psd.
  'image/vnd.adobe.photoshop': { kind: 'image', label: 'a Photoshop document', extensions: ['.psd'], aliases: ['image/psd'] },
  'audio/mpeg': { kind: 'audio', label: 'an MP3 audio file', extensions: ['.mp3'] },
  'audio/wav': { kind: 'audio', label: 'a WAV audio file', extensions: ['.wav'] },
  'audio/ogg': { kind: 'audio', label: 'an Ogg audio file', extensions: ['.ogg', '.oga'] },
  'audio/flac': { kind: 'audio', label: 'a FLAC audio file', extensions: ['.flac'] },
  'audio/mp4': { kind: 'audio', label: 'an M4A audio file', extensions: ['.m4a'] },
  'video/mp4': { kind: 'video', label: 'an MP4 video', extensions: ['.mp4'] },
  'video/quicktime': { kind: 'video', label: 'a QuickTime video', extensions: ['.mov'] },
  'video/3gpp': { kind: 'video', label: 'a 3GP video', extensions: ['.3gp'] },
  'video/webm': { kind: 'video', label: 'a WebM or Matroska video', extensions: ['.webm', '.mkv'] },
  'application/pdf': { kind: 'other', label: 'a PDF document', extensions: ['.pdf'] },
  'application/zip': { kind: 'other', label: 'a ZIP archive', extensions: ['.zip'] },
};

const KIND_NOUNS: Readonly<Record<MediaKind, string>> = { image: 'a picture', video: 'a video', audio: 'an audio file' };

/**
 * What file-type (magic bytes) calls a format Kinora names otherwise: the Ogg, Matroska and ISO
 * media families are one format each here, as SPEC §5 lists them.
 */
const SNIFFED_ALIASES: Readonly<Record<string, string>> = {
  'application/ogg': 'audio/ogg',
  'audio/opus': 'audio/ogg',
  'video/ogg': 'audio/ogg',
  'video/x-matroska': 'video/webm',
  'audio/x-m4a': 'audio/mp4',
  'video/x-m4v': 'video/mp4',
  'video/3gpp2': 'video/3gpp',
  'image/heic-sequence': 'image/heic',
  'image/heif-sequence': 'image/heif',
};

/** An SVG document: XML text whose first element is <svg> (after a prolog, comments, a doctype). */
function isSvgDocument(data: Buffer): boolean {
  const head = data.subarray(0, 8192).toString('utf8').replace(/^\uFEFF/, '');
  if (!/^\s*</.test(head)) return false;
  const body = head
    .replace(/<\?[\s\S]*?\?>/g, '')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<!DOCTYPE[^>[]*(\[[\s\S]*?\])?\s*>/i, '');
  const root = /^\s*<([A-Za-z_][\w.-]*:)?([A-Za-z_][\w.-]*)[\s/>]/.exec(body);
  return root?.[2] === 'svg';
}

/**
 * The file's real type from its first bytes, or null when no known format matches. The binary
 * formats are file-type's (a maintained signature set instead of a hand-kept one); SVG is text, so
 * it is read here: XML whose first element is <svg>.
 */
export async function sniffType(data: Buffer): Promise<string | null> {
  const found = await fileTypeFromBuffer(data);
  if (found && found.mime !== 'application/xml') return SNIFFED_ALIASES[found.mime] ?? found.mime;
  return isSvgDocument(data) ? 'image/svg+xml' : null;
}

function looksLikeText(data: Buffer): boolean {
  const sample = data.subarray(0, 1024);
  if (sample.length === 0 || sample.includes(0)) return false;
  let printable = 0;
  for (const byte of sample) if (byte === 9 || byte === 10 || byte === 13 || byte >= 32) printable += 1;
  return printable / sample.length > 0.95;
}

function acceptedExtensions(kind: MediaKind): string[] {
  return [...new Set(Object.values(UPLOAD_RULES[kind].accept).flat())];
}

function typeAccepted(kind: MediaKind, type: string): boolean {
  const format = FORMATS[type];
  if (!format || format.kind !== kind) return false;
  const keys = Object.keys(UPLOAD_RULES[kind].accept);
  if (keys.includes(type) || format.aliases?.some((alias) => keys.includes(alias))) return true;
  const listed = acceptedExtensions(kind);
  return format.extensions.some((extension) => listed.includes(extension));
}

function extensionOf(fileName: string): string | null {
  const match = /\.([A-Za-z0-9]+)$/.exec(fileName.trim());
  return match ? `.${(match[1] ?? '').toLowerCase()}` : null;
}

const quoted = (fileName: string) => `"${fileName.length > 80 ? `${fileName.slice(0, 77)}...` : fileName}"`;

/**
 * What checkUpload answers: UploadCheck, with the status a refusal deserves (415 for a file that
 * is not what it must be, 413 for a picture with too many pixels).
 */
export type CheckedUpload = Extract<UploadCheck, { ok: true }> | { ok: false; reason: string; status: 413 | 415 };

/**
 * Most pixels an uploaded picture may have (issue 17). A few dozen bytes can claim 60,000 ×
 * 60,000 pixels; decoding that would take gigabytes, so the claim is refused before anything is
 * decoded or stored. 100 megapixels is far above any camera's picture (a 50 MP sensor is large).
 */
export const MAX_PICTURE_MEGAPIXELS = 100;

/**
 * Formats this server decodes (sharp, or the BMP reader): one that fails to decode is damaged or
 * cut short and refused. PSD and HEIC/HEIF are accepted without being decoded (no decoder here).
 */
const DECODED_TYPES: ReadonlySet<string> = new Set(['image/png', 'image/jpeg', 'image/webp', 'image/gif', 'image/tiff', 'image/bmp', 'image/avif']);

function reject(reason: string, status: 413 | 415 = 415): CheckedUpload {
  return { ok: false, reason, status };
}

/** Width and height read from the header, for pictures that cannot be decoded (padded, PSD…). */
function headerSize(data: Buffer, type: string): { width?: number; height?: number } {
  if (type === 'image/png' && data.length >= 24) return { width: data.readUInt32BE(16), height: data.readUInt32BE(20) };
  if (type === 'image/vnd.adobe.photoshop' && data.length >= 26) return { width: data.readUInt32BE(18), height: data.readUInt32BE(14) };
  if (type === 'image/bmp' && data.length >= 26) return { width: Math.abs(data.readInt32LE(18)), height: Math.abs(data.readInt32LE(22)) };
  return {};
}

/** What stands in for the thumbnail of a picture that cannot be decoded: its format's name. */
async function placeholderThumbnail(type: string): Promise<RenderedFile> {
  const label = (FORMATS[type]?.extensions[0] ?? '.img').slice(1).toUpperCase();
  const width = THUMBNAIL_LONG_SIDE;
  const height = Math.round((THUMBNAIL_LONG_SIDE * 3) / 4);
  const scale = 8;
  const textWidth = pixelTextWidth(label) * scale;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="${width}" height="${height}" fill="#e5e7eb"/>${pixelTextSvg(label, { x: (width - textWidth) / 2, y: (height - PIXEL_TEXT_HEIGHT * scale) / 2, scale, fill: '#6b7280' })}</svg>`;
  const data = await sharp(Buffer.from(svg)).flatten({ background: '#ffffff' }).jpeg({ quality: 80 }).toBuffer();
  return { name: 'thumbnail.jpg', contentType: 'image/jpeg', data };
}

function hasTransparency(picture: Picture): boolean {
  for (let offset = 3; offset < picture.data.length; offset += 4) if ((picture.data[offset] ?? 255) < 255) return true;
  return false;
}

/** Pixel size as the viewer sees it (EXIF rotation applied). */
async function displaySize(data: Buffer, type: string, picture: Picture): Promise<{ width: number; height: number }> {
  if (type === 'image/svg+xml' || type === 'image/bmp') return { width: picture.width, height: picture.height };
  try {
    const metadata = await sharp(data).metadata();
    if (metadata.autoOrient?.width && metadata.autoOrient.height) return { width: metadata.autoOrient.width, height: metadata.autoOrient.height };
  } catch {
    // Decoding worked, so the picture's own (possibly shrunk) size is the best left to report.
  }
  return { width: picture.width, height: picture.height };
}

/** The pixel size the file's header claims (sharp reads only the header), else the header fields read here. */
async function claimedSize(data: Buffer, type: string): Promise<{ width?: number; height?: number }> {
  if (type === 'image/svg+xml') return {};
  try {
    const metadata = await sharp(data, { limitInputPixels: false }).metadata();
    if (metadata.width && metadata.height) return { width: metadata.width, height: metadata.height };
  } catch {
    // A header sharp cannot read at all: the format's own fields, where known.
  }
  return headerSize(data, type);
}

async function checkPicture(data: Buffer, fileName: string, type: string): Promise<CheckedUpload> {
  const claimed = await claimedSize(data, type);
  if ((claimed.width ?? 0) * (claimed.height ?? 0) > MAX_PICTURE_MEGAPIXELS * 1_000_000) {
    return reject(`${quoted(fileName)} is ${claimed.width} × ${claimed.height} pixels: pictures can have at most ${MAX_PICTURE_MEGAPIXELS} megapixels.`, 413);
  }
  const picture = await decodePicture(data);
  if (!picture) {
    // SVG is never served as it is (scripts, external references): one that cannot be drawn is refused.
    if (type === 'image/svg+xml') return reject(`${quoted(fileName)} is an SVG drawing that could not be drawn.`);
    if (DECODED_TYPES.has(type)) return reject(`${quoted(fileName)} is damaged or cut short: it could not be read as ${FORMATS[type]?.label ?? 'a picture'}.`);
    // A format this server has no decoder for (PSD, HEIC) is still the accepted type its bytes
    // say: it is stored, with a placeholder thumbnail and no display copy.
    return { ok: true, contentType: type, display: null, thumbnail: await placeholderThumbnail(type), ...claimed };
  }
  let display: RenderedFile | null = null;
  if (!FORMATS[type]?.browserImage) {
    const pipeline = pictureToSharp(picture);
    display =
      type === 'image/svg+xml' || hasTransparency(picture)
        ? { name: 'display.png', contentType: 'image/png', data: await pipeline.png().toBuffer() }
        : { name: 'display.jpg', contentType: 'image/jpeg', data: await pipeline.removeAlpha().jpeg({ quality: 90 }).toBuffer() };
  }
  const thumbnail: RenderedFile = { name: 'thumbnail.jpg', contentType: 'image/jpeg', data: await jpegThumbnail(picture) };
  return { ok: true, contentType: type, display, thumbnail, ...(await displaySize(data, type, picture)) };
}

/**
 * Accepts or refuses an upload of `kind` by its bytes and name. `reason` completes the sentence
 * "This file type is not accepted for {kind} uploads: …".
 */
export async function checkUpload(kind: MediaKind, data: Buffer, fileName: string, declaredType: string): Promise<CheckedUpload> {
  const accepted = acceptedExtensions(kind);
  const acceptedList = `Accepted: ${accepted.join(', ')}.`;
  const type = await sniffType(data);
  const format = type ? FORMATS[type] : undefined;
  if (!type || !format) {
    const what = looksLikeText(data) ? 'is plain text' : 'is not a file type Kinora recognises';
    const declared = declaredType.trim() === '' ? '' : ` (sent as ${declaredType.trim()})`;
    return reject(`${quoted(fileName)} ${what}${declared}, not ${KIND_NOUNS[kind]}. ${acceptedList}`);
  }
  if (format.kind !== kind) return reject(`${quoted(fileName)} is ${format.label}, not ${KIND_NOUNS[kind]}. ${acceptedList}`);
  if (!typeAccepted(kind, type)) return reject(`${quoted(fileName)} is ${format.label}. ${acceptedList}`);
  const extension = extensionOf(fileName);
  if (!extension) return reject(`${quoted(fileName)} has no file extension. ${acceptedList}`);
  if (!accepted.includes(extension) && !format.extensions.includes(extension)) {
    return reject(`${quoted(fileName)} has the extension ${extension}. ${acceptedList}`);
  }
  if (kind === 'image') return checkPicture(data, fileName, type);
  const wav = type === 'audio/wav' ? readWavInfo(data) : null;
  return {
    ok: true,
    contentType: type,
    display: null,
    thumbnail: null,
    ...(wav ? { durationSeconds: wav.durationSeconds } : {}),
  };
}
