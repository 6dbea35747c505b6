/**
 * Where the build puts the public pages prerendered by scripts/prerender.ts (issue 19 item 1),
 * under its output folder, and how a page's exact path names its file: `/` → `index.html`,
 * `/ai-image/` → `ai-image/index.html`, `/use-cases/branding` → `use-cases/branding.html`. The API
 * server (routes/spa.ts) answers a page navigation with the prerendered file of exactly that path
 * (`/ai-image` is not `/ai-image/`: the menu marks the current page by its exact path), and with
 * the bare index.html otherwise.
 */
export const PRERENDERED_DIR = 'prerendered';

export const prerenderedFile = (pathname: string): string =>
  pathname.endsWith('/') ? `${pathname.slice(1)}index.html` : `${pathname.slice(1)}.html`;
