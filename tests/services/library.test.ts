import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/services/api-error';
import { getAccessToken } from '@/services/auth';
import type * as AuthModule from '@/services/auth';
import { addToFolder, createFolder, deleteFolder, listFolders, removeFromFolder, renameFolder, searchLibrary } from '@/services/library';
import { server } from '../msw/server';
import { buildFinishedMedia } from './media.fixtures';

vi.mock('@/services/auth', async (importOriginal) => ({
  ...(await importOriginal<typeof AuthModule>()),
  getAccessToken: vi.fn(),
}));

beforeEach(() => {
  vi.mocked(getAccessToken).mockReset().mockResolvedValue('raw-access-token');
});

const API = 'http://localhost/api';
const FOLDER = { id: 'f 1', name: 'Posters', item_count: 2, created_at: '2026-11-27T10:00:00.000Z', updated_at: '2026-11-27T10:00:00.000Z' };

/** Answers `method path` with `body` (status 200 unless told) and keeps every request it got. */
function answer(method: 'get' | 'post' | 'patch' | 'put' | 'delete', path: string, body: Record<string, unknown>, status = 200): Request[] {
  const requests: Request[] = [];
  server.use(
    http[method](`${API}/${path}`, ({ request }) => {
      requests.push(request);
      return HttpResponse.json(body, { status });
    }),
  );
  return requests;
}

describe('the Library’s calls', () => {
  it('GET library sends the search under the server’s names and reads each result’s folders and the next key', async () => {
    const requests = answer('get', 'library', { data: { items: [{ ...buildFinishedMedia({ id: 'a' }), folder_ids: ['f1'] }], next_start_keys: 'k2' } });
    const page = await searchLibrary({ q: ' fox ', kind: 'video', folderId: 'f1', nextStartKeys: 'k1', limit: 24 });
    expect(page.items.map((item) => [item.id, item.folder_ids])).toEqual([['a', ['f1']]]);
    expect(page.nextStartKeys).toBe('k2');
    expect(requests[0]!.headers.get('Authorization')).toBe('raw-access-token');
    expect(Object.fromEntries(new URL(requests[0]!.url).searchParams)).toEqual({ q: 'fox', kind: 'video', folder: 'f1', next_start_keys: 'k1', limit: '24' });

    const blank = answer('get', 'library', { data: { items: [buildFinishedMedia({ id: 'b' })] } });
    await expect(searchLibrary({ q: '   ' })).resolves.toMatchObject({ items: [{ id: 'b', folder_ids: [] }], nextStartKeys: null });
    expect([...new URL(blank[0]!.url).searchParams.keys()]).toEqual([]);
  });

  it('the folder calls send their method, path and body, and read what the server answers', async () => {
    answer('get', 'library/folders', { data: { items: [FOLDER] } });
    expect(await listFolders()).toEqual([FOLDER]);
    const created = answer('post', 'library/folders', { data: FOLDER }, 201);
    expect(await createFolder('Posters')).toEqual(FOLDER);
    expect(await created[0]!.json()).toEqual({ name: 'Posters' });
    const renamed = answer('patch', 'library/folders/:id', { data: { ...FOLDER, name: 'Prints' } });
    expect((await renameFolder('f 1', 'Prints')).name).toBe('Prints');
    expect(new URL(renamed[0]!.url).pathname).toBe('/api/library/folders/f%201');
    expect(await renamed[0]!.json()).toEqual({ name: 'Prints' });
    const deleted = answer('delete', 'library/folders/:id', { data: { id: 'f 1', deleted: true } });
    await expect(deleteFolder('f 1')).resolves.toBeUndefined();
    expect(deleted).toHaveLength(1);
    const membership = { media_id: 'm1', folder_ids: ['f 1'], folder: FOLDER };
    const put = answer('put', 'library/folders/:id/items/:mediaId', { data: membership });
    expect(await addToFolder('f 1', 'm1')).toEqual(membership);
    expect(new URL(put[0]!.url).pathname).toBe('/api/library/folders/f%201/items/m1');
    answer('delete', 'library/folders/:id/items/:mediaId', { data: { ...membership, folder_ids: [] } });
    expect((await removeFromFolder('f 1', 'm1')).folder_ids).toEqual([]);
  });

  it('a refused call is an ApiError with the server’s message; an answer of another shape is refused', async () => {
    answer('post', 'library/folders', { detail: 'You already have a folder with that name.' }, 409);
    await expect(createFolder('posters')).rejects.toMatchObject({ message: 'You already have a folder with that name.', status: 409 });
    answer('get', 'library/folders', { data: { items: [{ id: 'f1' }] } });
    await expect(listFolders()).rejects.toBeInstanceOf(ApiError);
  });
});
