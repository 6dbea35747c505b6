import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import type { LibraryFolder } from '@/services/schemas/library';
import type { Media } from '@/services/schemas/media';
import { API, answer, detail } from '../msw/data';
import { server } from '../msw/server';
import { buildFinishedMedia } from '../services/media.fixtures';
import { fireEvent, renderApp, screen, userEvent, waitFor, within } from '../test-utils';
import { PAGE_LOAD, setUpJobTests } from './generation-helpers';
import { alice, signedInAs } from './session-helpers';

const user = userEvent.setup();

setUpJobTests();

/** A finished result of the person's (newest first by its number: r9 is newer than r1). */
const result = (n: number, overrides: Partial<Media> = {}): Media =>
  buildFinishedMedia({
    id: `r${n}`,
    args: { prompt: `a red fox number ${n}` },
    created_at: `2026-11-${String(10 + n).padStart(2, '0')}T10:00:00.000Z`,
    ...overrides,
  });

const VIDEO = (n: number): Media =>
  result(n, {
    kind: 'video',
    tool: 'ai-motion',
    args: { prompt: `a running fox ${n}` },
    items: [{ type: 'video', status: 'success', url: `http://localhost/api/files/v${n}`, thumbnail_url: `http://localhost/api/files/vt${n}`, file_id: `v${n}` }],
  });
const SOUND = (n: number): Media =>
  result(n, {
    kind: 'audio',
    tool: 'text-to-music',
    args: { prompt: `calm piano ${n}` },
    items: [{ type: 'audio', status: 'success', url: `http://localhost/api/files/a${n}`, thumbnail_url: null, file_id: `a${n}` }],
  });

/**
 * The Library's calls as the server answers them, kept in memory: GET library (q, kind, folder,
 * pages of `pageSize` by next_start_keys) and the folder calls. Every GET library query is kept.
 */
function libraryServer(results: Media[], options: { pageSize?: number; failFirst?: string } = {}) {
  const pageSize = options.pageSize ?? 24;
  const folders = new Map<string, LibraryFolder>();
  const inside = new Map<string, Set<string>>();
  const queries: URLSearchParams[] = [];
  let failFirst = options.failFirst;
  let made = 0;
  const folderIdsOf = (mediaId: string) => [...folders.keys()].filter((id) => inside.get(id)?.has(mediaId));
  const withCount = (folder: LibraryFolder): LibraryFolder => ({ ...folder, item_count: inside.get(folder.id)?.size ?? 0 });
  const membership = (folderId: string, mediaId: string) => ({
    media_id: mediaId,
    folder_ids: folderIdsOf(mediaId),
    folder: withCount(folders.get(folderId)!),
  });
  server.use(
    http.get(`${API}/library`, ({ request }) => {
      const params = new URL(request.url).searchParams;
      queries.push(params);
      if (failFirst) {
        const message = failFirst;
        failFirst = undefined;
        return detail(503, message);
      }
      const q = params.get('q')?.toLowerCase();
      const kind = params.get('kind');
      const folder = params.get('folder');
      const found = results.filter(
        (media) =>
          (!q || String(media.args.prompt).toLowerCase().includes(q)) &&
          (!kind || media.kind === kind) &&
          (!folder || inside.get(folder)?.has(media.id)),
      );
      const start = Number(params.get('next_start_keys') ?? 0);
      const page = found.slice(start, start + pageSize);
      return answer({
        items: page.map((media) => ({ ...media, folder_ids: folderIdsOf(media.id) })),
        next_start_keys: start + pageSize < found.length ? String(start + pageSize) : null,
      });
    }),
    http.get(`${API}/library/folders`, () => answer({ items: [...folders.values()].map(withCount) })),
    http.post(`${API}/library/folders`, async ({ request }) => {
      const { name } = (await request.json()) as { name: string };
      if ([...folders.values()].some((folder) => folder.name.toLowerCase() === name.toLowerCase())) {
        return detail(409, 'You already have a folder with that name.');
      }
      made += 1;
      const folder = { id: `f${made}`, name, item_count: 0, created_at: '2026-11-27T10:00:00.000Z', updated_at: '2026-11-27T10:00:00.000Z' };
      folders.set(folder.id, folder);
      return answer(folder, { status: 201 });
    }),
    http.patch(`${API}/library/folders/:id`, async ({ params, request }) => {
      const { name } = (await request.json()) as { name: string };
      const folder = folders.get(String(params.id));
      if (!folder) return detail(404, 'That folder was not found.');
      folders.set(folder.id, { ...folder, name });
      return answer(withCount({ ...folder, name }));
    }),
    http.delete(`${API}/library/folders/:id`, ({ params }) => {
      folders.delete(String(params.id));
      inside.delete(String(params.id));
      return answer({ id: params.id, deleted: true });
    }),
    http.put(`${API}/library/folders/:id/items/:mediaId`, ({ params }) => {
      const folderId = String(params.id);
      inside.set(folderId, new Set([...(inside.get(folderId) ?? []), String(params.mediaId)]));
      return answer(membership(folderId, String(params.mediaId)));
    }),
    http.delete(`${API}/library/folders/:id/items/:mediaId`, ({ params }) => {
      inside.get(String(params.id))?.delete(String(params.mediaId));
      return answer(membership(String(params.id), String(params.mediaId)));
    }),
  );
  return { queries, last: () => queries.at(-1) ?? new URLSearchParams(), folders };
}

const grid = () => screen.getByRole('list', { name: 'Your results' });
const cards = () => within(grid()).getAllByRole('article');
const card = (name: string | RegExp) => within(grid()).getByRole('article', { name });

async function openLibrary(path = '/library') {
  await signedInAs(alice);
  renderApp(path);
  await screen.findByRole('heading', { level: 1, name: 'Library' }, PAGE_LOAD);
}

describe('the Library page', () => {
  it('shows every kind of result as a card, newest first, with Download and Show in History', async () => {
    libraryServer([SOUND(3), VIDEO(2), result(1)]);
    await openLibrary();
    await screen.findByRole('list', { name: 'Your results' }, PAGE_LOAD);
    expect(cards().map((entry) => entry.getAttribute('aria-label'))).toEqual([
      'Text to Music: calm piano 3',
      'AI Motion: a running fox 2',
      'Text to Image: a red fox number 1',
    ]);
    const picture = card('Text to Image: a red fox number 1');
    expect(within(picture).getByRole('img', { name: 'Text to Image: a red fox number 1' })).toHaveAttribute('src', expect.stringContaining('/files/t1'));
    expect(within(picture).getByRole('link', { name: 'Download Text to Image: a red fox number 1' })).toHaveAttribute('href', expect.stringContaining('/files/f1'));
    expect(within(picture).getByRole('link', { name: 'Show Text to Image: a red fox number 1 in History' })).toHaveAttribute('href', '/history?job=r1');
    expect(card(/^AI Motion/).querySelector('video')).toHaveAttribute('poster', 'http://localhost/api/files/vt2');
    expect(card(/^Text to Music/).querySelector('audio')).toHaveAttribute('src', 'http://localhost/api/files/a3');

    // A picture opens in the lightbox.
    await user.click(within(picture).getByRole('button', { name: /^View .+ larger$/ }));
    const lightbox = await screen.findByRole('dialog');
    expect(within(lightbox).getByRole('img')).toHaveAttribute('src', expect.stringContaining('/files/f1'));
  });

  it('a picture whose signed link stopped loading gets a fresh one, for its preview and its Download alike', async () => {
    libraryServer([result(1)]);
    const fresh = result(1, {
      items: [{ type: 'image', status: 'success', url: 'http://localhost/api/files/f1?fresh', thumbnail_url: 'http://localhost/api/files/t1?fresh', file_id: 'f1' }],
    });
    server.use(http.get(`${API}/media/:id`, () => answer(fresh)));
    await openLibrary();
    const picture = await screen.findByRole('img', { name: 'Text to Image: a red fox number 1' }, PAGE_LOAD);
    fireEvent.error(picture);
    await waitFor(() => expect(screen.getByRole('img', { name: 'Text to Image: a red fox number 1' })).toHaveAttribute('src', 'http://localhost/api/files/t1?fresh'));
    expect(screen.getByRole('link', { name: 'Download Text to Image: a red fox number 1' })).toHaveAttribute('href', 'http://localhost/api/files/f1?fresh');
  });

  it('says there is nothing yet, and searches by prompt and kind with GET library’s query', async () => {
    const { last } = libraryServer([]);
    await openLibrary();
    expect(await screen.findByText(/^No results yet — make something in AI Image/, {}, PAGE_LOAD)).toBeInTheDocument();
    await user.type(screen.getByRole('searchbox', { name: 'Search prompts' }), 'fox');
    await waitFor(() => expect(last().get('q')).toBe('fox'));
    expect(await screen.findByText('No results match this search')).toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: 'Videos' }));
    await waitFor(() => expect(last().get('kind')).toBe('video'));
    expect(last().get('q')).toBe('fox');
    await user.click(screen.getByRole('button', { name: 'Clear search' }));
    await waitFor(() => expect(last().get('kind')).toBeNull());
    expect(last().get('q')).toBeNull();
  });

  it('pages with Load more, and a failed first page shows the server’s message and tries again', async () => {
    libraryServer([result(3), result(2), result(1)], { pageSize: 2, failFirst: 'The server is busy, try again in a minute.' });
    await openLibrary();
    const failure = await screen.findByRole('alert', {}, PAGE_LOAD);
    expect(failure).toHaveTextContent('Your results could not be loaded');
    expect(failure).toHaveTextContent('The server is busy, try again in a minute.');
    await user.click(within(failure).getByRole('button', { name: 'Try again' }));
    await screen.findByRole('list', { name: 'Your results' }, PAGE_LOAD);
    expect(cards()).toHaveLength(2);
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(cards()).toHaveLength(3));
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
  });

  it('creates a folder, puts a result in it, shows the folder, renames it and deletes it (the results stay)', async () => {
    libraryServer([result(2), result(1)]);
    await openLibrary();
    await screen.findByRole('list', { name: 'Your results' }, PAGE_LOAD);
    const nav = screen.getByRole('navigation', { name: 'Folders' });

    await user.click(within(nav).getByRole('button', { name: 'New folder' }));
    const create = await screen.findByRole('dialog', { name: 'New folder' });
    await user.type(within(create).getByRole('textbox', { name: 'Folder name' }), 'Foxes');
    await user.click(within(create).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(within(nav).getByRole('button', { name: /Foxes/ })).toHaveTextContent('0 results');

    // The same name again: the server's message in the dialog, which stays open.
    await user.click(within(nav).getByRole('button', { name: 'New folder' }));
    const again = await screen.findByRole('dialog', { name: 'New folder' });
    await user.type(within(again).getByRole('textbox', { name: 'Folder name' }), 'foxes');
    await user.click(within(again).getByRole('button', { name: 'Create' }));
    expect(await within(again).findByText('That did not work: You already have a folder with that name.')).toBeInTheDocument();
    await user.click(within(again).getByRole('button', { name: 'Cancel' }));

    const first = card('Text to Image: a red fox number 1');
    await user.click(within(first).getByRole('button', { name: 'Folders of Text to Image: a red fox number 1' }));
    await user.click(await screen.findByRole('checkbox', { name: 'Foxes' }));
    await waitFor(() => expect(within(nav).getByRole('button', { name: /Foxes/ })).toHaveTextContent('1 result'));
    expect(screen.getByRole('checkbox', { name: 'Foxes' })).toBeChecked();
    expect(first).toHaveTextContent('In 1 folder');
    await user.keyboard('{Escape}');

    await user.click(within(nav).getByRole('button', { name: /Foxes/ }));
    expect(await screen.findByRole('heading', { name: 'Folder: Foxes' })).toBeInTheDocument();
    await waitFor(() => expect(cards()).toHaveLength(1));
    expect(cards()[0]).toHaveAccessibleName('Text to Image: a red fox number 1');

    await user.click(screen.getByRole('button', { name: 'Rename' }));
    const rename = await screen.findByRole('dialog', { name: 'Rename “Foxes”' });
    const field = within(rename).getByRole('textbox', { name: 'Folder name' });
    await user.clear(field);
    await user.type(field, 'Red foxes{Enter}');
    expect(await screen.findByRole('heading', { name: 'Folder: Red foxes' })).toBeInTheDocument();

    // Taken out of the folder viewed, the result leaves it: the folder is empty.
    await user.click(within(cards()[0]!).getByRole('button', { name: /^Folders of/ }));
    await user.click(await screen.findByRole('checkbox', { name: 'Red foxes' }));
    expect(await screen.findByText('This folder is empty')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Delete folder' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete the folder “Red foxes”?' });
    expect(confirm).toHaveTextContent('Its results stay in your Library');
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(within(nav).queryByRole('button', { name: /Red foxes/ })).not.toBeInTheDocument());
    await waitFor(() => expect(cards()).toHaveLength(2));
  });

  it('shows each picture of a run of several as its own card with its own seed; Show in History goes to the run, folders keep the run whole', async () => {
    const run = result(2, {
      seed: 70,
      args: { prompt: 'three lanterns', num_images: 3 },
      items: [1, 2, 3].map((n) => ({
        type: 'image' as const,
        status: 'success' as const,
        url: `http://localhost/api/files/lantern-${n}`,
        thumbnail_url: `http://localhost/api/files/lantern-${n}-small`,
        file_id: `lantern-${n}`,
        seed: 69 + n,
      })),
    });
    libraryServer([run, result(1)]);
    await openLibrary();
    await screen.findByRole('list', { name: 'Your results' }, PAGE_LOAD);
    expect(cards().map((entry) => entry.getAttribute('aria-label'))).toEqual([
      'Text to Image: three lanterns (picture 1 of 3)',
      'Text to Image: three lanterns (picture 2 of 3)',
      'Text to Image: three lanterns (picture 3 of 3)',
      'Text to Image: a red fox number 1',
    ]);
    const second = card('Text to Image: three lanterns (picture 2 of 3)');
    expect(second).toHaveTextContent('Picture 2 of 3');
    expect(second).toHaveTextContent('Seed 71');
    expect(within(second).getByRole('img')).toHaveAttribute('src', 'http://localhost/api/files/lantern-2-small');
    expect(within(second).getByRole('link', { name: /^Download / })).toHaveAttribute('href', 'http://localhost/api/files/lantern-2');
    expect(within(second).getByRole('link', { name: /^Show .+ in History$/ })).toHaveAttribute('href', '/history?job=r2');
    expect(card('Text to Image: three lanterns (picture 3 of 3)')).toHaveTextContent('Seed 72');

    // Its lightbox opens at that picture and pages through all of them.
    await user.click(within(second).getByRole('button', { name: /^View .+ larger$/ }));
    expect(within(await screen.findByRole('dialog')).getByRole('img')).toHaveAttribute('src', 'http://localhost/api/files/lantern-2');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    // A folder holds the run: put in from one picture's card, every picture of it is in the folder.
    const nav = screen.getByRole('navigation', { name: 'Folders' });
    await user.click(within(nav).getByRole('button', { name: 'New folder' }));
    const create = await screen.findByRole('dialog', { name: 'New folder' });
    await user.type(within(create).getByRole('textbox', { name: 'Folder name' }), 'Lanterns{Enter}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await user.click(within(second).getByRole('button', { name: /^Folders of / }));
    expect(await screen.findByText('Folders keep the whole run: its 3 pictures go in and out together.')).toBeInTheDocument();
    await user.click(screen.getByRole('checkbox', { name: 'Lanterns' }));
    await waitFor(() => expect(card('Text to Image: three lanterns (picture 1 of 3)')).toHaveTextContent('In 1 folder'));
    expect(card('Text to Image: three lanterns (picture 3 of 3)')).toHaveTextContent('In 1 folder');
    expect(card('Text to Image: a red fox number 1')).not.toHaveTextContent('In 1 folder');
  });

  it('?item= of a run of several pictures outlines and focuses its first picture', async () => {
    const run = result(1, {
      args: { prompt: 'two moons', num_images: 2 },
      items: [1, 2].map((n) => ({ type: 'image' as const, status: 'success' as const, url: `http://localhost/api/files/moon-${n}`, thumbnail_url: null, file_id: `moon-${n}`, seed: n })),
    });
    libraryServer([run]);
    await openLibrary('/library?item=r1');
    await waitFor(() => expect(card('Text to Image: two moons (picture 1 of 2)')).toHaveAttribute('aria-current', 'true'), PAGE_LOAD);
    expect(card('Text to Image: two moons (picture 1 of 2)')).toHaveFocus();
    expect(card('Text to Image: two moons (picture 2 of 2)')).not.toHaveAttribute('aria-current');
  });

  it('?item= reads on until that result is listed and brings it into view, outlined and focused', async () => {
    const { queries } = libraryServer([result(5), result(4), result(3), result(2), result(1)], { pageSize: 2 });
    await openLibrary('/library?item=r1');
    await waitFor(() => expect(card('Text to Image: a red fox number 1')).toHaveAttribute('aria-current', 'true'), PAGE_LOAD);
    expect(queries.map((query) => query.get('next_start_keys'))).toEqual([null, '2', '4']);
    expect(card('Text to Image: a red fox number 1')).toHaveFocus();
    expect(card('Text to Image: a red fox number 5')).not.toHaveAttribute('aria-current');
  });

  it('?item= of a result not in the Library says so', async () => {
    libraryServer([result(1)]);
    await openLibrary('/library?item=gone');
    expect(await screen.findByText(/^That result is not in your Library/, {}, PAGE_LOAD)).toBeInTheDocument();
  });

  it('History’s “Open in Library” opens the finished job’s result in the Library', async () => {
    const done = result(1);
    libraryServer([result(2), done]);
    server.use(http.get(`${API}/media`, () => answer({ items: [done], next_start_keys: null })));
    await signedInAs(alice);
    renderApp('/history');
    const table = await screen.findByRole('table', { name: 'Your jobs' }, PAGE_LOAD);
    await user.click(within(table).getByRole('link', { name: 'Open the Text to Image result in the Library' }));
    await screen.findByRole('heading', { level: 1, name: 'Library' }, PAGE_LOAD);
    await waitFor(() => expect(card('Text to Image: a red fox number 1')).toHaveAttribute('aria-current', 'true'), PAGE_LOAD);
  });

  it('offers the shared guest account no folders, and says why', async () => {
    libraryServer([result(1)]);
    await signedInAs({ username: 'guest' });
    renderApp('/library');
    await screen.findByRole('list', { name: 'Your results' }, PAGE_LOAD);
    expect(screen.getByText(/^Folders are for your own account/)).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Folders' })).not.toBeInTheDocument();
    expect(within(card(/red fox number 1/)).queryByRole('button', { name: /^Folders of/ })).not.toBeInTheDocument();
  });
});
