import { createFile, MP4BoxBuffer, type Movie } from 'mp4box';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batchSchema, type Batch } from '../../../src/services/schemas/batch.ts';
import { asMedia, fetchFile, hasEnded, pollStatus, postForm, smallPng, wavOfSize } from '../helpers/media.ts';
import { callApi, signUpUser, startTestServer, type TestServer } from '../helpers/server.ts';

/**
 * A parallax album made for real: its clips rendered, then joined into one MP4 with a sound under
 * it. Rendering takes real seconds, so the clips are short (2 s) and few (2).
 */

let server: TestServer;
type User = Awaited<ReturnType<typeof signUpUser>>;
let user: User;

const RENDER_TIMEOUT_MS = 150_000;

/** The movie header of an MP4, read with mp4box (what a player reads first). */
function readMovie(bytes: Buffer): Movie {
  const file = createFile();
  let movie: Movie | null = null;
  file.onReady = (info) => {
    movie = info;
  };
  file.onError = (error) => {
    throw new Error(`mp4box could not read the file: ${String(error)}`);
  };
  const buffer = MP4BoxBuffer.fromArrayBuffer(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer, 0);
  file.appendBuffer(buffer);
  file.flush();
  if (!movie) throw new Error('mp4box found no movie header');
  return movie;
}

const asBatch = (answer: { body: { data?: unknown } | null }): Batch => batchSchema.parse(answer.body?.data);

async function upload(endpoint: string, field: string, file: { data: Buffer; name: string; type: string }): Promise<string> {
  const answer = await postForm(server, endpoint, { [field]: file }, { token: user.accessToken });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return asMedia(answer).items[0]?.url ?? '';
}

beforeAll(async () => {
  server = await startTestServer({ jobs: { durationMs: 20, pollIntervalMs: 100, concurrency: 2 } });
  user = await signUpUser(server, 'joiner');
});

afterAll(async () => {
  await server?.close();
});

describe('an album from pictures to one joined video', () => {
  it(
    'renders each clip, then joins them with the sound under them into one MP4 as long as the clips together',
    async () => {
      const pictures = [
        await upload('image', 'image_file', { data: await smallPng(160, 120, '#cc6633'), name: 'a.png', type: 'image/png' }),
        await upload('image', 'image_file', { data: await smallPng(160, 120, '#3366cc'), name: 'b.png', type: 'image/png' }),
      ];
      // 2 s of 8 kHz 8-bit mono: shorter than the clips together, so the join loops it.
      const audio = await upload('audio', 'audio_file', { data: wavOfSize(16_044), name: 'beat.wav', type: 'audio/wav' });
      const created = asBatch(await postForm(server, 'batch', { batch_type: 'parallax', title: 'Trip', image_urls: pictures }, { token: user.accessToken }));
      const board = asBatch(await postForm(server, `batch/${created.id}/script-board`, { motion_length: '2' }, { token: user.accessToken })).script_board;
      const generated = await postForm(server, `batch/${created.id}/videos`, { script_board: JSON.stringify(board) }, { token: user.accessToken });
      expect(generated.status, JSON.stringify(generated.body)).toBe(200);
      const clipIds = asBatch(generated).videos.map((video) => video.id);
      expect(clipIds).toHaveLength(2);
      for (const id of clipIds) expect(await pollStatus(server, id, hasEnded, RENDER_TIMEOUT_MS)).toBe('success');

      const album = asBatch(await callApi(server, `batch/${created.id}`, { token: user.accessToken }));
      const clipUrls = album.videos.map((video) => video.items[0]?.url ?? '');
      expect(album.videos.map((video) => video.items[0]?.folder_path)).toEqual(['batch/1/HorizontalArc', 'batch/1/VerticalArc']);
      const clipSeconds = album.videos.map((video) => video.items[0]?.duration_seconds ?? 0);
      for (const seconds of clipSeconds) expect(seconds).toBeCloseTo(2, 0);

      const edit = await postForm(
        server,
        `batch/${created.id}/edit`,
        { concat_video_urls: clipUrls, audio_urls: [audio], concat: 'true' },
        { token: user.accessToken, method: 'PUT' },
      );
      expect(edit.status, JSON.stringify(edit.body)).toBe(200);
      const joining = asBatch(edit).concat;
      expect(joining).toMatchObject({ tool: 'batch-concat', kind: 'video', cost: 0 });
      expect(await pollStatus(server, joining?.id ?? '', hasEnded, RENDER_TIMEOUT_MS)).toBe('success');

      const joined = asBatch(await callApi(server, `batch/${created.id}`, { token: user.accessToken })).concat;
      expect(joined?.items).toHaveLength(1);
      const file = await fetchFile(joined?.items[0]?.url ?? '');
      expect(file.status).toBe(200);
      const movie = readMovie(file.bytes);
      const total = clipSeconds.reduce((sum, seconds) => sum + seconds, 0);
      expect(movie.duration / movie.timescale).toBeGreaterThan(total - 0.3);
      expect(movie.duration / movie.timescale).toBeLessThan(total + 0.3);
      expect(movie.videoTracks).toHaveLength(1);
      // The album's sound plays under the joined video.
      expect(movie.audioTracks).toHaveLength(1);
    },
    RENDER_TIMEOUT_MS * 2,
  );
});
