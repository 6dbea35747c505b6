import { describe, expect, it } from 'vitest';
import { EnvErrorPage } from '@/app/env-error-page';
import { EnvError, parseEnv } from '@/config/env';
import { render, screen, within } from '../test-utils';

describe('environment error page', () => {
  it('lists every missing or invalid variable', () => {
    let issues: string[] = [];
    try {
      parseEnv({ VITE_API_KEY: '', VITE_AUTH_FLOW_TYPE: 'MAGIC' });
    } catch (error) {
      if (error instanceof EnvError) issues = error.issues;
    }
    render(<EnvErrorPage issues={issues} />);

    expect(screen.getByRole('heading', { level: 1, name: 'Kinora cannot start' })).toBeInTheDocument();
    const items = within(screen.getByRole('list')).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual(issues);
    const text = screen.getByRole('list').textContent ?? '';
    expect(text).toContain('VITE_API_KEY');
    expect(text).toContain('VITE_COGNITO_USER_POOL_ID');
    expect(text).toContain('VITE_COGNITO_CLIENT_ID');
    expect(text).toContain('VITE_AUTH_FLOW_TYPE');
  });
});
