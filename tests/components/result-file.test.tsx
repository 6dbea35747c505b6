import { fireEvent } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { MediaResultCard } from '@/components/media/media-result-card';
import { RESULT_FILE_REFRESHES, resultFileMachine } from '@/machines/result-file/result-file.machine';
import { mediaSchema } from '@/services/schemas/media';
import { addMedia, resetFakeMedia } from '../msw/media';
import { alice, signedInAs } from '../screens/session-helpers';
import { render, screen, waitFor } from '../test-utils';

/**
 * Issue 17: a result whose signed link fails to load (an hour-old page, a refused link) is shown
 * again from a fresh link, fetched from the server, at most RESULT_FILE_REFRESHES times; then the
 * page says the file could not be loaded instead of showing a broken picture.
 */

const signed = (name: string): string => `http://localhost/api/files/${name}?expires=4102444800&signature=${'cd'.repeat(32)}`;

afterEach(() => resetFakeMedia());

function finishedPicture() {
  return addMedia({
    kind: 'image',
    tool: 'text-to-image',
    status: 'success_image',
    progress: 100,
    option: 'Seedream',
    args: { prompt: 'a harbour', option: 'Seedream' },
    items: [{ type: 'image', status: 'success', url: signed('old.png'), thumbnail_url: signed('old-thumb.jpg'), file_id: 'f1' }],
  });
}

describe('a result picture whose link fails', () => {
  it('is shown again from a fresh link, then reported when the fresh links fail too', async () => {
    await signedInAs(alice);
    const record = finishedPicture();
    render(<MediaResultCard media={mediaSchema.parse(record)} highlighted={false} />);
    const picture = await screen.findByRole('img', { name: /a harbour/ });
    expect(picture.getAttribute('src')).toBe(signed('old-thumb.jpg'));

    // The server signs anew: the next GET media/{id} answers fresh links.
    record.items = [{ type: 'image', status: 'success', url: signed('new.png'), thumbnail_url: signed('new-thumb.jpg'), file_id: 'f1' }];
    fireEvent.error(picture);
    await waitFor(() => expect(screen.getByRole('img', { name: /a harbour/ }).getAttribute('src')).toBe(signed('new-thumb.jpg')), { timeout: 4000 });
    expect(screen.getByRole('link', { name: /Download/ }).getAttribute('href')).toBe(signed('new.png'));

    fireEvent.error(screen.getByRole('img', { name: /a harbour/ }));
    await waitFor(() => expect(screen.getByRole('img', { name: /a harbour/ })).toBeInTheDocument(), { timeout: 4000 });
    fireEvent.error(screen.getByRole('img', { name: /a harbour/ }));
    expect(await screen.findByRole('alert', {}, { timeout: 4000 })).toHaveTextContent('could not be loaded');
    expect(screen.queryByRole('img', { name: /a harbour/ })).not.toBeInTheDocument();
  });
});

describe('resultFile machine', () => {
  it(`refreshes at most ${RESULT_FILE_REFRESHES} times, then is broken`, async () => {
    let calls = 0;
    const actor = createActor(
      resultFileMachine.provide({
        actors: { freshLinks: fromPromise(async () => ({ url: `u${++calls}`, thumbnailUrl: null as string | null })) },
      }),
      { input: { mediaId: 'm1', itemIndex: 0, url: 'u0', thumbnailUrl: null } },
    ).start();
    for (let attempt = 1; attempt <= RESULT_FILE_REFRESHES; attempt += 1) {
      actor.send({ type: 'file.failed' });
      await waitFor(() => expect(actor.getSnapshot().value).toBe('showing'));
      expect(actor.getSnapshot().context.url).toBe(`u${attempt}`);
    }
    actor.send({ type: 'file.failed' });
    expect(actor.getSnapshot().value).toBe('broken');
    expect(calls).toBe(RESULT_FILE_REFRESHES);
  });

  it('a history-only result (no item to ask for) and a failed refresh are broken at once', async () => {
    const historyOnly = createActor(resultFileMachine, { input: { mediaId: 'm1', itemIndex: null, url: 'u0', thumbnailUrl: null } }).start();
    historyOnly.send({ type: 'file.failed' });
    expect(historyOnly.getSnapshot().value).toBe('broken');

    const gone = createActor(
      resultFileMachine.provide({ actors: { freshLinks: fromPromise<{ url: string; thumbnailUrl: string | null }, { mediaId: string; itemIndex: number }>(async () => Promise.reject(new Error('gone'))) } }),
      { input: { mediaId: 'm1', itemIndex: 0, url: 'u0', thumbnailUrl: null } },
    ).start();
    gone.send({ type: 'file.failed' });
    await waitFor(() => expect(gone.getSnapshot().value).toBe('broken'));
  });
});
