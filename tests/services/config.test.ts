import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { defaultAppConfiguration } from '@/config/app-config';
import { getAccessToken } from '@/services/auth';
import type * as AuthModule from '@/services/auth';
import { getFrontendConfigurations } from '@/services/config';
import { buildAppConfiguration } from '../fixtures/app-configuration';
import { server } from '../msw/server';

vi.mock('@/services/auth', async (importOriginal) => ({
  ...(await importOriginal<typeof AuthModule>()),
  getAccessToken: vi.fn(async () => 'raw-access-token'),
}));

describe('getFrontendConfigurations', () => {
  it('fetches the configuration publicly, without Authorization even when signed in', async () => {
    const configuration = buildAppConfiguration();
    const seen: Request[] = [];
    server.use(
      http.get('http://localhost/api/frontend-configurations', ({ request }) => {
        seen.push(request);
        return HttpResponse.json({ data: configuration });
      }),
    );

    await expect(getFrontendConfigurations()).resolves.toEqual(configuration);

    expect(seen[0]!.headers.get('Authorization')).toBeNull();
    expect(seen[0]!.headers.get('X-Api-Key')).toBe('test-api-key');
    expect(seen[0]!.headers.get('X-CLIENT-TYPE')).toBe('web-frontend');
    expect(getAccessToken).not.toHaveBeenCalled();
  });

  it('fills parts the server leaves out with the built-in defaults', async () => {
    server.use(
      http.get('http://localhost/api/frontend-configurations', () =>
        HttpResponse.json({ data: { camera_movements: [{ label: 'Only', value: 'Only', prompt: 'only' }] } }),
      ),
    );

    const configuration = await getFrontendConfigurations();

    expect(configuration.camera_movements).toEqual([{ label: 'Only', value: 'Only', prompt: 'only' }]);
    expect(configuration.tier_information).toEqual(defaultAppConfiguration.tier_information);
  });

  it('rejects a configuration of the wrong shape', async () => {
    server.use(
      http.get('http://localhost/api/frontend-configurations', () =>
        HttpResponse.json({ data: { camera_movements: 'zoom' } }),
      ),
    );

    await expect(getFrontendConfigurations()).rejects.toMatchObject({
      name: 'ApiError',
      kind: 'parse',
      message: expect.stringContaining('camera_movements'),
    });
  });
});
