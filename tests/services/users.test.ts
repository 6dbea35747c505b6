import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { getAccessToken } from '@/services/auth';
import type * as AuthModule from '@/services/auth';
import { checkUsernameAvailable, contactUs, deleteAccount, getUser, uploadUserFile } from '@/services/users';
import { server } from '../msw/server';

vi.mock('@/services/auth', async (importOriginal) => ({
  ...(await importOriginal<typeof AuthModule>()),
  getAccessToken: vi.fn(),
}));

const API = 'http://localhost/api';

beforeEach(() => {
  vi.mocked(getAccessToken).mockReset().mockResolvedValue('raw-access-token');
});

describe('getUser', () => {
  it('fetches a public profile without Authorization, passing type when given', async () => {
    const seen: Request[] = [];
    server.use(
      http.get(`${API}/users/:id`, ({ request, params }) => {
        seen.push(request);
        return HttpResponse.json({ data: { id: String(params.id), preferred_username: 'ada' } });
      }),
    );

    await expect(getUser('user-1', 'creator')).resolves.toEqual({ id: 'user-1', preferred_username: 'ada' });
    await getUser('user-1');

    expect(new URL(seen[0]!.url).searchParams.get('type')).toBe('creator');
    expect(new URL(seen[1]!.url).search).toBe('');
    expect(seen.map((request) => request.headers.get('Authorization'))).toEqual([null, null]);
    expect(getAccessToken).not.toHaveBeenCalled();
  });

  it('works while signed out', async () => {
    vi.mocked(getAccessToken).mockResolvedValue(null);
    server.use(http.get(`${API}/users/:id`, () => HttpResponse.json({ data: { id: 'u2', preferred_username: null } })));
    await expect(getUser('u2')).resolves.toEqual({ id: 'u2', preferred_username: null });
  });
});

describe('checkUsernameAvailable', () => {
  it('posts the handle as JSON with the user token', async () => {
    const seen: Request[] = [];
    server.use(
      http.post(`${API}/users/available-username`, async ({ request }) => {
        seen.push(request.clone());
        return HttpResponse.json({ data: { preferred_username: 'ada', available: false } });
      }),
    );

    await expect(checkUsernameAvailable('ada')).resolves.toEqual({ preferred_username: 'ada', available: false });

    expect(await seen[0]!.json()).toEqual({ preferred_username: 'ada' });
    expect(seen[0]!.headers.get('Content-Type')).toBe('application/json');
    expect(seen[0]!.headers.get('Authorization')).toBe('raw-access-token');
  });
});

describe('deleteAccount', () => {
  it('sends DELETE users with the user token', async () => {
    let authorization: string | null = null;
    server.use(
      http.delete(`${API}/users`, ({ request }) => {
        authorization = request.headers.get('Authorization');
        return HttpResponse.json({ data: { deleted: true } });
      }),
    );

    await expect(deleteAccount()).resolves.toEqual({ deleted: true });
    expect(authorization).toBe('raw-access-token');
  });

  it('is refused while signed out, before any request', async () => {
    vi.mocked(getAccessToken).mockResolvedValue(null);
    await expect(deleteAccount()).rejects.toMatchObject({
      message: 'User needs to be authenticated to call this API.',
      kind: 'auth',
    });
  });
});

describe('contactUs', () => {
  it('posts the message and returns its id', async () => {
    let body: unknown;
    server.use(
      http.post(`${API}/users/contact-us`, async ({ request }) => {
        body = await request.json();
        return HttpResponse.json({ data: { id: 'msg-1' } });
      }),
    );

    const message = { name: 'Ada', email: 'ada@example.com', message: 'Hello' };
    await expect(contactUs(message)).resolves.toEqual({ id: 'msg-1' });
    expect(body).toEqual(message);
  });
});

describe('uploadUserFile', () => {
  it('posts the file description as JSON to users/me/file', async () => {
    let body: unknown;
    let contentType: string | null = null;
    server.use(
      http.post(`${API}/users/me/file`, async ({ request }) => {
        contentType = request.headers.get('Content-Type');
        body = await request.json();
        return HttpResponse.json({ data: { url: 'https://media.example/u1/avatar.png' } });
      }),
    );

    const file = { filename: 'avatar.png', type: 'avatar', content_type: 'image/png', blob: 'iVBORw0KGgo=' };
    await expect(uploadUserFile(file)).resolves.toEqual({ url: 'https://media.example/u1/avatar.png' });
    expect(body).toEqual(file);
    expect(contentType).toBe('application/json');
  });
});
