import { createRequire } from 'node:module';
import path from 'node:path';
import type { Plugin } from 'vite';

/**
 * React Router 7's package exports point every condition at its development build
 * (`dist/development`, with `ENABLE_DEV_WARNINGS = true`), production builds included: a known,
 * still open issue (https://github.com/remix-run/react-router/issues/14102). The package ships the
 * production build beside it, file for file; this plugin resolves `react-router` and
 * `react-router/dom` to it in `vite build`, so the dev-only warnings and checks are dropped from
 * what browsers download and run (issue 19). Both entries must move together: they share the
 * build's internal chunks, and two copies of the router would have two sets of contexts.
 * `vite` (the dev server) and the tests keep the development build and its warnings.
 */
export function reactRouterProduction(): Plugin {
  const require = createRequire(import.meta.url);
  const production = path.join(path.dirname(require.resolve('react-router/package.json')), 'dist', 'production');
  const entries: Record<string, string> = {
    'react-router': path.join(production, 'index.mjs'),
    'react-router/dom': path.join(production, 'dom-export.mjs'),
  };
  return {
    name: 'kinora-react-router-production',
    apply: 'build',
    enforce: 'pre',
    resolveId(source) {
      return entries[source] ?? null;
    },
  };
}
