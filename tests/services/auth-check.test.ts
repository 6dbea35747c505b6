import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { authCheck } from '@/services/auth-check';
import { getAccessToken } from '@/services/auth';
import type * as AuthModule from '@/services/auth';
import { server } from '../msw/server';

vi.mock('@/services/auth', async (importOriginal) => ({
  ...(await importOriginal<typeof AuthModule>()),
  getAccessToken: vi.fn(async () => 'raw-access-token'),
}));

describe('authCheck', () => {
  it('posts the e-mail with the client type and API key, never user auth', async () => {
    const seen: Request[] = [];
    server.use(
      http.post('http://localhost/api/auth/check', ({ request }) => {
        seen.push(request.clone());
        return HttpResponse.json({ data: { email: 'ada@example.com', exists: true } });
      }),
    );

    await expect(authCheck('ada@example.com')).resolves.toEqual({ email: 'ada@example.com', exists: true });

    const request = seen[0]!;
    expect(await request.json()).toEqual({ email: 'ada@example.com' });
    expect(request.headers.get('X-CLIENT-TYPE')).toBe('web-frontend');
    expect(request.headers.get('X-Api-Key')).toBe('test-api-key');
    expect(request.headers.get('Content-Type')).toBe('application/json');
    expect(request.headers.get('Authorization')).toBeNull();
    expect(getAccessToken).not.toHaveBeenCalled();
  });

  it('passes on the server message for a refused key', async () => {
    server.use(
      http.post('http://localhost/api/auth/check', () => HttpResponse.json({ detail: 'Invalid API key' }, { status: 403 })),
    );
    await expect(authCheck('ada@example.com')).rejects.toMatchObject({ message: 'Invalid API key', status: 403 });
  });
});
