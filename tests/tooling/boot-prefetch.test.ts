import { describe, expect, it } from 'vitest';
import { bootChunks } from '../../scripts/boot-prefetch';

const chunk = (fileName: string, imports: string[] = [], dynamicImports: string[] = []) => ({ fileName, imports, dynamicImports });

describe('boot prefetch list (scripts/boot-prefetch.ts)', () => {
  it("lists the entry's parts and what they import, once each, without the entry's own imports or the skipped part", () => {
    const entry = chunk('assets/index.js', ['assets/react.js'], ['assets/auth.js', 'assets/app.js', 'assets/env-error-page.js']);
    const bundle = {
      'assets/index.js': entry,
      'assets/react.js': chunk('assets/react.js'),
      'assets/auth.js': chunk('assets/auth.js', ['assets/zod.js', 'assets/react.js']),
      'assets/app.js': chunk('assets/app.js', ['assets/zod.js', 'assets/mantine.js'], ['assets/screen.js']),
      'assets/zod.js': chunk('assets/zod.js'),
      'assets/mantine.js': chunk('assets/mantine.js', ['assets/react.js']),
      'assets/env-error-page.js': chunk('assets/env-error-page.js', ['assets/mantine.js']),
      'assets/screen.js': chunk('assets/screen.js'),
      'assets/style.css': { fileName: 'assets/style.css' },
    };
    expect(bootChunks(entry, bundle, /env-error-page/)).toEqual([
      'assets/app.js',
      'assets/auth.js',
      'assets/mantine.js',
      'assets/zod.js',
    ]);
  });
});
