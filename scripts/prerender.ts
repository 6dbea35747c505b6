import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import react from '@vitejs/plugin-react';
import { build, type Plugin } from 'vite';
import { PRERENDERED_DIR, prerenderedFile } from '../server/src/lib/prerendered.ts';


const ROOT_ELEMENT = '<div id="root"></div>';

/**
 * The built index.html with a page's markup inside `#root` and its title, without the
 * modulepreload links: the page is drawn by its HTML, so nothing is gained by fetching every
 * chunk before the first paint, and they compete with it (on slow 4G, Lighthouse's first paint
 * went from 3.1 s to 1.8 s without them). The entry script still imports them; the bare
 * index.html, which draws every other page with JS, keeps its links.
 */
export function pageHtml(indexHtml: string, page: { html: string; title: string }): string {
  if (!indexHtml.includes(ROOT_ELEMENT)) throw new Error(`index.html has no ${ROOT_ELEMENT}`);
  const escapedTitle = page.title.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  return indexHtml
    .replace(/[ \t]*<link rel="modulepreload"[^>]*>\n?/g, '')
    .replace(/<title>[^<]*<\/title>/, `<title>${escapedTitle}</title>`)
    .replace(ROOT_ELEMENT, `<div id="root" data-prerendered="">${page.html}</div>`);
}

interface PrerenderModule {
  PRERENDERED_PATHS: readonly string[];
  envComplete(): boolean;
  prerenderPage(pathname: string): Promise<{ html: string; title: string }>;
}

/**
 * Issue 19 item 1: after the browser build is written, builds src/app/prerender.tsx for Node (same
 * aliases, React plugin and VITE_* variables, so CSS module class names match the browser build),
 * renders each public page and writes it beside index.html under `prerendered/`. Runs in
 * `writeBundle`, which every plugin finishes before any `closeBundle`, so precompress (a
 * `closeBundle`) compresses these pages too.
 */
export function prerender(): Plugin {
  let root = process.cwd();
  let outDir = 'dist';
  let ssr = false;
  return {
    name: 'kinora-prerender',
    apply: 'build',
    configResolved(config) {
      root = config.root;
      outDir = path.resolve(config.root, config.build.outDir);
      ssr = Boolean(config.build.ssr);
    },
    async writeBundle() {
      if (ssr) return;
      // A folder of its own per build: Node keeps a module per URL, and the lazy screens' chunks
      // import the entry by its plain URL, so a cache-busting query on the entry would load the app
      // twice (two sets of React contexts).
      const ssrDir = path.join(root, `node_modules/.cache/kinora-prerender-${process.pid}-${Date.now()}`);
      await build({
        configFile: false,
        root,
        mode: 'production',
        logLevel: 'warn',
        plugins: [react()],
        resolve: { alias: { '@': path.join(root, 'src') } },
        build: {
          ssr: path.join(root, 'src/app/prerender.tsx'),
          outDir: ssrDir,
          emptyOutDir: true,
          sourcemap: false,
          // One file run once by this plugin, in Node: its size matters to no one.
          chunkSizeWarningLimit: 100_000,
        },
      });
      try {
        const module = (await import(pathToFileURL(path.join(ssrDir, 'prerender.js')).href)) as PrerenderModule;
        if (!module.envComplete()) {
          this.warn('not prerendering the public pages: the VITE_* settings are incomplete (see src/config/env.ts)');
          return;
        }
        const indexHtml = await readFile(path.join(outDir, 'index.html'), 'utf8');
        for (const pathname of module.PRERENDERED_PATHS) {
          const file = path.join(outDir, PRERENDERED_DIR, prerenderedFile(pathname));
          await mkdir(path.dirname(file), { recursive: true });
          await writeFile(file, pageHtml(indexHtml, await module.prerenderPage(pathname)));
        }
      } finally {
        await rm(ssrDir, { recursive: true, force: true });
      }
    },
  };
}
