/**
 * `npm run bench`: builds the web app and measures what a visitor downloads to render `/`
 * (the entry chunk, its static imports and their CSS, gzip level 9) and the largest lazy chunk,
 * against `bench/budget.json`. Prints a table, writes it to `bench-results/bench.md`, and exits
 * non-zero when a figure is over its budget.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

const root = process.cwd();
const dist = join(root, 'dist');

if (!process.argv.includes('--no-build')) {
  execFileSync(join(root, 'node_modules/.bin/vite'), ['build', '--logLevel', 'warn'], { stdio: 'inherit' });
}

const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8')) as Manifest;
const gzipBytes = (file: string) => gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;
const rawBytes = (file: string) => readFileSync(join(dist, file)).length;

/** The entry and every chunk it imports statically: what the browser needs before `/` renders. */
function initialChunks(): ManifestChunk[] {
  const seen = new Set<string>();
  const out: ManifestChunk[] = [];
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) return;
    out.push(chunk);
    chunk.imports?.forEach(visit);
  };
  Object.entries(manifest)
    .filter(([, chunk]) => chunk.isEntry)
    .forEach(([key]) => visit(key));
  return out;
}

const initial = initialChunks();
const initialFiles = new Set(initial.map((c) => c.file));
const initialJs = initial.map((c) => c.file).filter((f) => f.endsWith('.js'));
const initialCss = [...new Set(initial.flatMap((c) => c.css ?? []))];
const lazyJs = [...new Set(Object.values(manifest).map((c) => c.file))].filter(
  (f) => f.endsWith('.js') && !initialFiles.has(f),
);
const largestLazy = lazyJs
  .map((file) => ({ file, gzip: gzipBytes(file) }))
  .sort((a, b) => b.gzip - a.gzip)[0];

const sum = (files: string[], size: (f: string) => number) => files.reduce((total, f) => total + size(f), 0);
const budget = JSON.parse(readFileSync(join(root, 'bench/budget.json'), 'utf8')) as {
  initialJsGzipBytes: number;
  initialCssGzipBytes: number;
  largestLazyChunkGzipBytes: number;
};

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const rows = [
  {
    what: `initial JS (${initialJs.length} files)`,
    raw: sum(initialJs, rawBytes),
    gzip: sum(initialJs, gzipBytes),
    budget: budget.initialJsGzipBytes,
  },
  {
    what: `initial CSS (${initialCss.length} files)`,
    raw: sum(initialCss, rawBytes),
    gzip: sum(initialCss, gzipBytes),
    budget: budget.initialCssGzipBytes,
  },
  {
    what: `largest lazy chunk (${largestLazy?.file ?? 'none'})`,
    raw: largestLazy ? rawBytes(largestLazy.file) : 0,
    gzip: largestLazy?.gzip ?? 0,
    budget: budget.largestLazyChunkGzipBytes,
  },
];

const lines = [
  '| what | raw | gzip | budget (gzip) | within |',
  '|---|---:|---:|---:|:---:|',
  ...rows.map((r) => `| ${r.what} | ${kb(r.raw)} | ${kb(r.gzip)} | ${kb(r.budget)} | ${r.gzip <= r.budget ? 'yes' : 'NO'} |`),
  '',
  `${lazyJs.length} lazy chunks in all.`,
];
const table = lines.join('\n');
console.log(table);
mkdirSync(join(root, 'bench-results'), { recursive: true });
writeFileSync(join(root, 'bench-results/bench.md'), `${table}\n`);

const over = rows.filter((r) => r.gzip > r.budget);
if (over.length > 0) {
  console.error(`Over budget: ${over.map((r) => r.what).join(', ')}`);
  process.exitCode = 1;
}
