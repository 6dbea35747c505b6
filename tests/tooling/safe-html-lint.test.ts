import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * HTML reaches the page only through <SafeHtml> (src/components/help/safe-html.tsx), which runs
 * DOMPurify itself. eslint.config.js forbids `dangerouslySetInnerHTML` everywhere else; these
 * cases make sure the rule keeps firing, and does not fire in that one file.
 */
const eslint = new ESLint({ cwd: process.cwd() });

const SAMPLE = `
export function Sample({ html }: { html: string }) {
  return <div dangerouslySetInnerHTML={{ __html: html }} />;
}
`;

async function htmlRuleMessages(filePath: string, source = SAMPLE): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => m.message);
}

describe('the dangerouslySetInnerHTML lint rule', () => {
  it.each([
    ['a screen', 'src/screens/example/example-screen.tsx'],
    ['a component', 'src/components/media/example-card.tsx'],
    ['another help component', 'src/components/help/help-popover-example.tsx'],
    ['the app shell', 'src/app/example.tsx'],
    ['a test', 'tests/screens/example.test.tsx'],
  ])('refuses it in %s', async (_name, filePath) => {
    const messages = await htmlRuleMessages(filePath);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain('SafeHtml');
  });

  it('allows it in the safe-html component only', async () => {
    expect(await htmlRuleMessages('src/components/help/safe-html.tsx')).toEqual([]);
  });

  it('does not fire on other attributes', async () => {
    const plain = 'export const Sample = ({ text }: { text: string }) => <div title={text}>{text}</div>;\n';
    expect(await htmlRuleMessages('src/screens/example/example-screen.tsx', plain)).toEqual([]);
  });

  it('finds no use of it in the code base outside the safe-html component', async () => {
    const results = await eslint.lintFiles(['src/**/*.tsx']);
    const offenders = results
      .filter((result) => result.messages.some((m) => m.ruleId === 'no-restricted-syntax'))
      .map((result) => result.filePath);
    expect(offenders).toEqual([]);
  });
});
