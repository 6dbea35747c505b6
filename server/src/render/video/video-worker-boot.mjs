// The video worker's thread entry. Node 20's tsx registers its loader on the main thread only
// (`--import tsx` in a worker's execArgv is ignored there), so the worker loads its TypeScript
// through tsx's scoped tsImport, which works in any thread and on every Node version.
import { tsImport } from 'tsx/esm/api';

await tsImport('./video-worker.ts', import.meta.url);
