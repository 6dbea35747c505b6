import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SERVER_SOURCE = path.resolve(import.meta.dirname, '../../../server/src');

async function sourceFiles(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((entry) => {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) return sourceFiles(full);
      return Promise.resolve(entry.name.endsWith('.ts') ? [full] : []);
    }),
  );
  return nested.flat();
}

describe('the AWS SDK', () => {
  it('is loaded only when a bucket is opened: one dynamic import, every other mention a type import', async () => {
    const loads: string[] = [];
    for (const file of await sourceFiles(SERVER_SOURCE)) {
      const text = await readFile(file, 'utf8');
      for (const line of text.split('\n')) {
        if (!line.includes("'@aws-sdk/")) continue;
        if (/^import type .* from '@aws-sdk\//.test(line.trim())) continue;
        loads.push(`${path.relative(SERVER_SOURCE, file)}: ${line.trim()}`);
      }
    }
    expect(loads).toEqual(["storage/s3-bucket.ts: const sdk = await import('@aws-sdk/client-s3');"]);
  });
});
