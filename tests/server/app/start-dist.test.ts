import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startDistDir } from '../../../server/src/local-defaults.ts';

/** Issue 17: a plain `npm run build` (which writes `dist/`) must never replace the app `npm start` serves. */
describe("npm start's own web build", () => {
  const root = '/checkout';

  it('goes to the data folder, not to the dist/ that npm run build writes', () => {
    expect(startDistDir(root, {})).toBe(path.join(root, '.local', 'dist'));
    expect(startDistDir(root, {})).not.toBe(path.join(root, 'dist'));
    expect(startDistDir(root, { KINORA_DATA_DIR: '/data/kinora' })).toBe('/data/kinora/dist');
  });

  it('still goes where KINORA_DIST_DIR says (the browser tests keep their own)', () => {
    expect(startDistDir(root, { KINORA_DIST_DIR: '.local/e2e-dist' })).toBe(path.join(root, '.local', 'e2e-dist'));
    expect(startDistDir(root, { KINORA_DIST_DIR: '/tmp/elsewhere', KINORA_DATA_DIR: '/data' })).toBe('/tmp/elsewhere');
  });
});
