import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import type { MediaKind } from '@/config/enums';
import type { UploadOptions } from '@/services/media';
import type { Media } from '@/services/schemas/media';
import { uploadFileActor, uploadMachine } from '@/machines/upload/upload.machine';
import { selectUploadView } from '@/machines/upload/upload.selectors';
import { buildFinishedMedia, deferred } from '../generation-job/generation-job.fixtures';

/** 'upload.useExisting' (issue 7, "Choose from assets"): a result the person has becomes the field's file. */
const upload = vi.fn<(kind: MediaKind, file: Blob, options?: UploadOptions) => Promise<Media>>();
const machine = uploadMachine.provide({ actors: { sendFile: uploadFileActor(upload) } });

const twoVideos = buildFinishedMedia({
  id: 'v1',
  kind: 'video',
  status: 'success',
  items: [0, 1].map((index) => ({
    type: 'video' as const,
    status: 'success' as const,
    url: `http://localhost/files/v1-${index}.mp4`,
    thumbnail_url: `http://localhost/files/v1-${index}.jpg`,
    file_id: `v1-${index}`,
  })),
});

beforeEach(() => {
  vi.useFakeTimers();
  upload.mockReset();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('upload machine: using an existing result', () => {
  it('is done at once with the chosen item, nothing sent', () => {
    const actor = createActor(machine, { input: { kind: 'video' } }).start();
    actor.send({ type: 'upload.useExisting', media: twoVideos, itemIndex: 1, name: 'waves (2)' });
    expect(selectUploadView(actor.getSnapshot())).toMatchObject({
      phase: 'done',
      url: 'http://localhost/files/v1-1.mp4',
      thumbnailUrl: 'http://localhost/files/v1-1.jpg',
      fileName: 'waves (2)',
      error: null,
    });
    expect(upload).not.toHaveBeenCalled();
    actor.send({ type: 'upload.clear' });
    expect(selectUploadView(actor.getSnapshot())).toMatchObject({ phase: 'idle', url: null, media: null });
  });

  it('stops an upload on its way (the request is aborted)', () => {
    const answer = deferred<Media>();
    let signal: AbortSignal | undefined;
    upload.mockImplementation((_kind, _file, options) => {
      signal = options?.signal;
      return answer.promise;
    });
    const actor = createActor(machine, { input: { kind: 'image' } }).start();
    actor.send({ type: 'upload.select', file: new File(['x'], 'a.png', { type: 'image/png' }) });
    expect(selectUploadView(actor.getSnapshot()).phase).toBe('uploading');
    actor.send({ type: 'upload.useExisting', media: buildFinishedMedia() });
    expect(signal?.aborted).toBe(true);
    expect(selectUploadView(actor.getSnapshot())).toMatchObject({
      phase: 'done',
      url: 'http://localhost/api/files/f1?expires=1&signature=abc',
      fileName: null,
    });
  });
});
