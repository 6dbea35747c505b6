import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Issue 22 item 6: the help popover's tutorial and description (with the sanitiser, DOMPurify)
 * are a chunk of their own, loaded at the first open, not with every tool page. A static import
 * of either from anywhere but that chunk would put them back into the pages.
 */

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sources(full);
    return /\.(ts|tsx)$/.test(name) ? [full] : [];
  });
}

const staticImport = (text: string, module: string): boolean =>
  new RegExp(`^import\\s[^;]*from\\s+'${module.replace(/[/.]/g, '\\$&')}'`, 'm').test(text);

describe('the help body chunk', () => {
  it('is imported only dynamically, and only it imports the sanitiser', () => {
    const files = sources('src');
    const body = path.join('src', 'components', 'help', 'help-topic-body.tsx');
    const safeHtml = path.join('src', 'components', 'help', 'safe-html.tsx');
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      expect(staticImport(text, '@/components/help/help-topic-body'), file).toBe(false);
      if (file !== body) expect(staticImport(text, '@/components/help/safe-html'), file).toBe(false);
      if (file !== safeHtml) expect(staticImport(text, 'dompurify'), file).toBe(false);
    }
    const popover = readFileSync(path.join('src', 'components', 'help', 'help-popover.tsx'), 'utf8');
    expect(popover).toContain("import('@/components/help/help-topic-body')");
    expect(staticImport(readFileSync(body, 'utf8'), '@/components/help/safe-html')).toBe(true);
  });
});
