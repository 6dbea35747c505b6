import HME from 'h264-mp4-encoder';
import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
// zlib's CRC-32 is PNG's; a byte loop in JS took about a second for each 30 MB limit-sized PNG.
import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import { mediaSchema, processingStatusSchema, type Media } from '../../../src/services/schemas/media.ts';
import { callApi, type ApiAnswer, type TestServer } from './server.ts';

export type FormValue = string | number | { data: Buffer; name: string; type: string };
export type FormFields = Record<string, FormValue | FormValue[]>;

export interface PostFormOptions {
  token?: string;
  method?: string;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** A multipart call as the web app sends it: repeated keys for arrays, files as Blobs. */
export async function postForm<T = unknown>(
  server: Pick<TestServer, 'url' | 'apiKey'>,
  path: string,
  fields: FormFields,
  options: PostFormOptions = {},
): Promise<ApiAnswer<T>> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (typeof item === 'object') form.append(name, new Blob([new Uint8Array(item.data)], { type: item.type }), item.name);
      else form.append(name, String(item));
    }
  }
  const headers: Record<string, string> = { 'X-CLIENT-TYPE': 'web-frontend', 'X-Api-Key': server.apiKey, ...options.headers };
  if (options.token) headers.Authorization = options.token;
  const response = await fetch(`${server.url}/api/${path}`, {
    method: options.method ?? 'POST',
    headers,
    body: form,
    signal: options.signal,
  });
  const text = await response.text();
  let body: ApiAnswer<T>['body'];
  try {
    body = JSON.parse(text) as ApiAnswer<T>['body'];
  } catch {
    body = null;
  }
  return { status: response.status, headers: response.headers, body };
}

export const asMedia = (answer: ApiAnswer): Media => mediaSchema.parse(answer.body?.data);

/**
 * Polls the public processing-status until `done` says so (or fails after `timeoutMs`). The wait
 * ends as soon as the status arrives; its bound sits under the server tests' 60 s timeout, so a
 * job that never ends still fails here with the statuses it went through. 10 s was too short
 * when the browser tests share the two cores (a CI run saw processing_source still at 10 s).
 */
export async function pollStatus(
  server: Pick<TestServer, 'url' | 'apiKey'>,
  id: string,
  done: (status: string) => boolean,
  timeoutMs = 45_000,
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  const seen: string[] = [];
  while (Date.now() < deadline) {
    const answer = await callApi(server, `media/${id}/processing-status`);
    const status = processingStatusSchema.parse(answer.body?.data).status;
    if (seen.at(-1) !== status) seen.push(status);
    if (done(status)) return status;
    await sleep(20);
  }
  throw new Error(`media ${id} did not get there in ${timeoutMs} ms; statuses seen: ${seen.join(' → ')}`);
}

export const ENDED = new Set(['success_image', 'success', 'failed', 'nsfw', 'cancelled']);
export const hasEnded = (status: string): boolean => ENDED.has(status);

export async function ledgerRows(server: Pick<TestServer, 'db'>, sub: string) {
  const { rows } = await server.db.query<{ kind: string; amount: number; job_id: string | null }>(
    'SELECT kind, amount, job_id FROM credit_ledger WHERE user_sub = $1 ORDER BY id',
    [sub],
  );
  return rows;
}

export async function balanceOf(server: Pick<TestServer, 'db'>, sub: string): Promise<number> {
  const rows = await ledgerRows(server, sub);
  return rows.reduce((sum, row) => sum + row.amount, 0);
}

/**
 * The balance the person can spend (GET credits/get): the ledger minus what open holds keep
 * (issue 21 item 6). A refused read throws, naming its status.
 */
export async function freeBalance(server: TestServer, token: string): Promise<number> {
  const answer = await callApi<{ credit: number }>(server, 'credits/get', { token });
  if (answer.status !== 200) throw new Error(`GET credits/get answered ${answer.status}`);
  return answer.body?.data?.credit ?? Number.NaN;
}

/** A small real PNG. */
export async function smallPng(width = 64, height = 48, colour = '#3366cc'): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: colour } }).png().toBuffer();
}

/**
 * A valid PNG of exactly `totalBytes`: a small picture with a private ancillary chunk (which
 * decoders skip) holding the padding, placed before IEND.
 */
export async function pngOfSize(totalBytes: number): Promise<Buffer> {
  const base = await smallPng(8, 8);
  const iend = base.subarray(base.length - 12);
  const head = base.subarray(0, base.length - 12);
  const padding = totalBytes - base.length - 12;
  if (padding < 0) throw new Error(`a PNG cannot be as small as ${totalBytes} bytes`);
  const chunk = Buffer.alloc(12 + padding);
  chunk.writeUInt32BE(padding, 0);
  chunk.write('kiNo', 4, 'ascii');
  chunk.writeUInt32BE(crc32(chunk.subarray(4, 8 + padding)), 8 + padding);
  return Buffer.concat([head, chunk, iend]);
}

/** A valid 8-bit mono PCM WAV of exactly `totalBytes` (silence). */
export function wavOfSize(totalBytes: number, sampleRate = 8000): Buffer {
  const dataBytes = totalBytes - 44;
  const wav = Buffer.alloc(totalBytes, 128);
  wav.write('RIFF', 0, 'ascii');
  wav.writeUInt32LE(totalBytes - 8, 4);
  wav.write('WAVE', 8, 'ascii');
  wav.write('fmt ', 12, 'ascii');
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20);
  wav.writeUInt16LE(1, 22);
  wav.writeUInt32LE(sampleRate, 24);
  wav.writeUInt32LE(sampleRate, 28);
  wav.writeUInt16LE(1, 32);
  wav.writeUInt16LE(8, 34);
  wav.write('data', 36, 'ascii');
  wav.writeUInt32LE(dataBytes, 40);
  return wav;
}

export const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Fetches a (signed) file URL as bytes. */
export async function fetchFile(url: string, headers: Record<string, string> = {}) {
  const response = await fetch(url, { headers });
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

export interface UnfinishedAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: { data?: unknown; detail?: string } | null;
}

/**
 * Sends the start of a request body whose Content-Length promises more, and never sends the rest:
 * the answer arriving at all shows the server answered without reading the whole body. Fails
 * after `timeoutMs` when no answer comes.
 */
export function sendUnfinished(
  server: Pick<TestServer, 'url' | 'apiKey'>,
  path: string,
  options: { headers: Record<string, string>; declaredLength: number; start: Buffer; token?: string; timeoutMs?: number },
): Promise<UnfinishedAnswer> {
  const target = new URL(`${server.url}/api/${path}`);
  return new Promise((resolve, reject) => {
    const request = http.request({
      method: 'POST',
      host: target.hostname,
      port: target.port,
      path: `${target.pathname}${target.search}`,
      headers: {
        'X-CLIENT-TYPE': 'web-frontend',
        'X-Api-Key': server.apiKey,
        ...(options.token ? { Authorization: options.token } : {}),
        ...options.headers,
        'Content-Length': String(options.declaredLength),
      },
    });
    const timer = setTimeout(() => {
      request.destroy();
      reject(new Error(`no answer within ${options.timeoutMs ?? 10_000} ms while the body was unfinished`));
    }, options.timeoutMs ?? 10_000);
    request.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        clearTimeout(timer);
        request.destroy();
        let body: UnfinishedAnswer['body'];
        try {
          body = JSON.parse(Buffer.concat(chunks).toString()) as UnfinishedAnswer['body'];
        } catch {
          body = null;
        }
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body });
      });
    });
    request.write(options.start);
  });
}

/** The start of a multipart body: `fields`, then the head of a file part (its bytes follow). */
export function multipartStart(boundary: string, fields: Record<string, string>, file: { field: string; name: string; type: string }): Buffer {
  const lines: string[] = [];
  for (const [name, value] of Object.entries(fields)) {
    lines.push(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
  }
  lines.push(`--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`);
  return Buffer.from(lines.join(''));
}

/**
 * A real H.264 MP4: `frames` frames of a colour sweep at `fps` (10 frames at 10 fps is one second;
 * 32 frames at 1 fps a 32 s video that is still quick to make).
 */
export async function smallMp4(frames = 10, width = 64, height = 48, fps = 10): Promise<Buffer> {
  const encoder = await HME.createH264MP4Encoder();
  encoder.width = width;
  encoder.height = height;
  encoder.frameRate = fps;
  encoder.initialize();
  for (let frame = 0; frame < frames; frame += 1) {
    const rgba = new Uint8Array(width * height * 4);
    for (let index = 0; index < rgba.length; index += 4) {
      rgba[index] = (frame * 25) % 256;
      rgba[index + 1] = ((index / 4) % width) * 3;
      rgba[index + 2] = 180;
      rgba[index + 3] = 255;
    }
    encoder.addFrameRgba(rgba);
  }
  encoder.finalize();
  const bytes = Buffer.from(encoder.FS.readFile(encoder.outputFilename));
  encoder.delete();
  return bytes;
}
