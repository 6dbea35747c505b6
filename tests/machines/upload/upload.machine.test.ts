import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import type { MediaKind } from '@/config/enums';
import type { Media } from '@/services/schemas/media';
import type { UploadOptions } from '@/services/media';
import { uploadFileActor, uploadMachine } from '@/machines/upload/upload.machine';
import { selectUploadView } from '@/machines/upload/upload.selectors';
import { buildFinishedMedia, deferred, flush } from '../generation-job/generation-job.fixtures';

/** The upload call, faked: the machine runs its real upload actor around it. */
const upload = vi.fn<(kind: MediaKind, file: Blob, options?: UploadOptions) => Promise<Media>>();
const machine = uploadMachine.provide({ actors: { sendFile: uploadFileActor(upload) } });

/** A file of the given size without allocating it: the machine reads name, type and size. */
const fileOf = (name: string, type: string, size: number): File => {
  const file = new File(['bytes'], name, { type });
  Object.defineProperty(file, 'size', { value: size });
  return file;
};

const start = (kind: 'image' | 'audio' | 'video' = 'image') => createActor(machine, { input: { kind } }).start();

beforeEach(() => {
  vi.useFakeTimers();
  upload.mockReset();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('upload machine (SPEC §5)', () => {
  it('refuses a wrong type before a byte is sent', () => {
    const actor = start();
    actor.send({ type: 'upload.select', file: fileOf('clip.gif', 'image/gif', 10) });
    expect(selectUploadView(actor.getSnapshot())).toMatchObject({
      phase: 'rejected',
      fileName: 'clip.gif',
      error: expect.stringContaining('"clip.gif" is not an accepted image.') as unknown,
    });
    expect(upload).not.toHaveBeenCalled();
    // The same view for the same snapshot (a stable selector result).
    expect(selectUploadView(actor.getSnapshot())).toBe(selectUploadView(actor.getSnapshot()));
    actor.send({ type: 'upload.clear' });
    expect(selectUploadView(actor.getSnapshot())).toMatchObject({ phase: 'idle', fileName: null, error: null });
  });

  it.each([
    ['image', 'a.png', 'image/png', 30_000_000],
    ['video', 'a.mp4', 'video/mp4', 100_000_000],
    ['audio', 'a.mp3', 'audio/mpeg', 50_000_000],
  ] as const)('%s: the limit passes, one byte more is refused', async (kind, name, type, limit) => {
    upload.mockResolvedValue(buildFinishedMedia());
    const over = start(kind);
    over.send({ type: 'upload.select', file: fileOf(name, type, limit + 1) });
    expect(selectUploadView(over.getSnapshot()).phase).toBe('rejected');
    expect(upload).not.toHaveBeenCalled();

    const at = start(kind);
    at.send({ type: 'upload.select', file: fileOf(name, type, limit) });
    expect(selectUploadView(at.getSnapshot()).phase).toBe('uploading');
    expect(upload).toHaveBeenCalledTimes(1);
    expect(upload.mock.calls[0]![0]).toBe(kind);
  });

  it('sends the file under its safe name, shows progress, and ends with the media URL', async () => {
    const answer = deferred<ReturnType<typeof buildFinishedMedia>>();
    let options: UploadOptions | undefined;
    upload.mockImplementation((_kind, _file, given) => {
      options = given;
      return answer.promise;
    });
    const actor = start();
    actor.send({ type: 'upload.select', file: fileOf('my photo (1).png', 'image/png', 1000) });
    const sent = upload.mock.calls[0]![1] as File;
    expect(sent.name).toBe('my_photo__1_.png');
    expect(sent.type).toBe('image/png');
    expect(selectUploadView(actor.getSnapshot())).toMatchObject({ phase: 'uploading', fileName: 'my photo (1).png', size: 1000, progress: 0 });

    options?.onProgress?.(0.4);
    expect(selectUploadView(actor.getSnapshot()).progress).toBe(0.4);

    answer.resolve(buildFinishedMedia({ tool: 'upload-image' }));
    await flush();
    expect(selectUploadView(actor.getSnapshot())).toMatchObject({
      phase: 'done',
      progress: 1,
      url: 'http://localhost/api/files/f1?expires=1&signature=abc',
      thumbnailUrl: 'http://localhost/api/files/t1?expires=1&signature=def',
      error: null,
    });
  });

  it('cancel aborts the request and goes back to idle', async () => {
    let signal: AbortSignal | undefined;
    upload.mockImplementation((_kind, _file, given) => {
      signal = given?.signal;
      return new Promise((_, reject) => given?.signal?.addEventListener('abort', () => reject(new Error('aborted'))));
    });
    const actor = start();
    actor.send({ type: 'upload.select', file: fileOf('a.png', 'image/png', 10) });
    expect(signal?.aborted).toBe(false);
    actor.send({ type: 'upload.cancel' });
    expect(signal?.aborted).toBe(true);
    await flush();
    expect(selectUploadView(actor.getSnapshot())).toMatchObject({ phase: 'idle', fileName: null, error: null });
  });

  it('a failure keeps the server message, and retry sends the same file again', async () => {
    upload.mockRejectedValueOnce(new Error('The file is too large: images can be at most 30 MB.')).mockResolvedValueOnce(buildFinishedMedia());
    const actor = start();
    actor.send({ type: 'upload.select', file: fileOf('a.png', 'image/png', 10) });
    await flush();
    expect(selectUploadView(actor.getSnapshot())).toMatchObject({
      phase: 'failed',
      error: 'The file is too large: images can be at most 30 MB.',
    });
    actor.send({ type: 'upload.retry' });
    await flush();
    expect(upload).toHaveBeenCalledTimes(2);
    expect((upload.mock.calls[1]![1] as File).name).toBe('a.png');
    expect(selectUploadView(actor.getSnapshot()).phase).toBe('done');
  });

  it('picking another file replaces the one being sent', async () => {
    const signals: AbortSignal[] = [];
    upload.mockImplementation((_kind, _file, given) => {
      if (given?.signal) signals.push(given.signal);
      return new Promise(() => {});
    });
    const actor = start();
    actor.send({ type: 'upload.select', file: fileOf('a.png', 'image/png', 10) });
    actor.send({ type: 'upload.select', file: fileOf('b.png', 'image/png', 10) });
    expect(signals.map((signal) => signal.aborted)).toEqual([true, false]);
    expect(selectUploadView(actor.getSnapshot()).fileName).toBe('b.png');
  });
});
