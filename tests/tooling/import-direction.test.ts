import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * ARCHITECTURE.md §2: imports flow config ← services ← machines ← screens ← app. The rule lives in
 * eslint.config.js; these cases make sure it keeps firing (and does not fire on allowed imports).
 */
const eslint = new ESLint({ cwd: process.cwd() });

async function importErrors(filePath: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${source}\nexport const used = x;\n`, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('import direction', () => {
  it.each([
    ['a machine importing React', 'src/machines/example/example.machine.ts', "import x from 'react';"],
    ['a machine importing Mantine', 'src/machines/example/example.machine.ts', "import { Button as x } from '@mantine/core';"],
    ['a machine importing a screen', 'src/machines/example/example.machine.ts', "import { HomeScreen as x } from '@/screens/home/home-screen';"],
    ['a screen importing a service', 'src/screens/example/example-screen.tsx', "import { getCredits as x } from '@/services/credits';"],
    ['a screen importing a service by relative path', 'src/screens/example/example-screen.tsx', "import { getCredits as x } from '../../services/credits';"],
    ['a component importing a service', 'src/components/example.tsx', "import { http as x } from '@/services/http';"],
    ['config importing a service', 'src/config/example.ts', "import { http as x } from '@/services/http';"],
    ['a service importing a machine', 'src/services/example.ts', "import { appConfigMachine as x } from '@/machines/app-config/app-config.machine';"],
    ['the server importing React', 'server/src/example.ts', "import x from 'react';"],
    ['the server importing a machine', 'server/src/example.ts', "import { appConfigMachine as x } from '../../src/machines/app-config/app-config.machine';"],
    ['the server importing a web service', 'server/src/example.ts', "import { http as x } from '../../src/services/http.ts';"],
    ['the server importing the inspector', 'server/src/example.ts', "import { createInspectionHub as x } from '../../src/lib/inspection/hub.ts';"],
  ])('refuses %s', async (_name, filePath, source) => {
    expect(await importErrors(filePath, source)).toHaveLength(1);
  });

  it.each([
    ['a machine importing a service', 'src/machines/example/example.machine.ts', "import { getCredits as x } from '@/services/credits';"],
    ['a screen importing a machine selector', 'src/screens/example/example-screen.tsx', "import { selectTierInformation as x } from '@/machines/app-config/app-config.selectors';"],
    ['the server importing config', 'server/src/example.ts', "import { MODEL_COSTS as x } from '../../src/config/model-costs.ts';"],
    ['the server importing a shared schema', 'server/src/example.ts', "import { userCreditsSchema as x } from '../../src/services/schemas/credits.ts';"],
    ['the server importing a pure helper of src/lib', 'server/src/example.ts', "import { resultLabel as x } from '../../src/lib/result-labels.ts';"],
  ])('allows %s', async (_name, filePath, source) => {
    expect(await importErrors(filePath, source)).toEqual([]);
  });
});
