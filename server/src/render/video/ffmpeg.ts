import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/**
 * FFmpeg compiled to WebAssembly (@ffmpeg/core, single thread, libx264 + AAC). The server has no
 * system ffmpeg, so this is how input videos are decoded, edited, joined and turned into GIFs.
 * A call blocks its thread for as long as ffmpeg runs: only the video worker
 * (video-worker.ts) loads this module, never the server's event loop.
 */

/** The few parts of the Emscripten module that are used. */
interface FfmpegCore {
  /** Receives every line ffmpeg prints (its log goes to stderr). */
  setLogger(logger: (entry: { type: string; message: string }) => void): void;
  FS: {
    writeFile(name: string, data: Uint8Array): void;
    readFile(name: string): Uint8Array;
  };
  exec(...args: string[]): number;
  /** ffmpeg's exit code of the last exec (0 = success). */
  ret: number;
}

/** Emscripten's hook for instantiating the module itself; it answers `{}` and calls `done` later. */
type InstantiateWasm = (imports: WebAssembly.Imports, done: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void) => object;

type CreateFfmpegCore = (options: { instantiateWasm: InstantiateWasm }) => Promise<FfmpegCore>;

let loaded: { create: CreateFfmpegCore; wasm: Promise<WebAssembly.Module> } | null = null;

/**
 * The core's factory and its WASM, compiled once per thread. Each run still gets a fresh instance
 * (below); compiling the 32 MB module again for each one cost ~0.4 s of CPU per ffmpeg call, and a
 * kept module also keeps the optimised code V8 made for its hot functions.
 */
function loadCore(): { create: CreateFfmpegCore; wasm: Promise<WebAssembly.Module> } {
  if (loaded) return loaded;
  // The UMD build expects a browser worker's globals; it only reads them to find its own URL,
  // which instantiating the module here makes unnecessary.
  const globals = globalThis as Record<string, unknown>;
  globals.self ??= globalThis;
  globals.location ??= { href: 'file:///' };
  const require = createRequire(import.meta.url);
  const create = require('@ffmpeg/core') as CreateFfmpegCore;
  const wasm = WebAssembly.compile(readFileSync(require.resolve('@ffmpeg/core/wasm')));
  loaded = { create, wasm };
  return loaded;
}

export interface FfmpegRun {
  /** Input files by name (the names the arguments use). */
  inputs: Readonly<Record<string, Uint8Array>>;
  args: readonly string[];
  /** Output file names to read back after the run. */
  outputs: readonly string[];
}

export interface FfmpegResult {
  exitCode: number;
  /** Everything ffmpeg printed (its log goes to stderr). */
  log: string;
  files: Record<string, Uint8Array>;
}

/**
 * One ffmpeg command on in-memory files. Each run gets a fresh instance of the compiled core:
 * Emscripten's ffmpeg keeps global state between runs, so reusing one is not reliable.
 */
export async function runFfmpeg(run: FfmpegRun): Promise<FfmpegResult> {
  const { create, wasm } = loadCore();
  const module = await wasm;
  const lines: string[] = [];
  // Emscripten never settles its factory when the instantiation it left to us fails: race it.
  let instantiationFailed: (error: unknown) => void = () => {};
  const failure = new Promise<never>((_, reject) => {
    instantiationFailed = reject;
  });
  const core = await Promise.race([
    create({
      instantiateWasm: (imports, done) => {
        WebAssembly.instantiate(module, imports).then((instance) => done(instance, module), instantiationFailed);
        return {};
      },
    }),
    failure,
  ]);
  core.setLogger(({ message }) => lines.push(message));
  for (const [name, data] of Object.entries(run.inputs)) core.FS.writeFile(name, data);
  // The core adds `-nostdin -y` itself.
  try {
    core.exec('-hide_banner', ...run.args);
  } catch (error) {
    // A WASM trap (out of memory, a filter bug): say which command it was.
    throw new Error(`ffmpeg crashed (${error instanceof Error ? error.message : String(error)}) running: ${run.args.join(' ').slice(0, 400)}`, { cause: error });
  }
  const files: Record<string, Uint8Array> = {};
  for (const name of run.outputs) {
    try {
      files[name] = core.FS.readFile(name);
    } catch {
      // A missing output is reported through exitCode/log by the caller.
    }
  }
  return { exitCode: core.ret, log: lines.join('\n'), files };
}

/** Runs ffmpeg and returns its outputs (all present and non-empty), or throws with the end of its log. */
export async function ffmpeg(run: FfmpegRun): Promise<{ files: Record<string, Uint8Array>; log: string }> {
  const result = await runFfmpeg(run);
  const missing = run.outputs.filter((name) => !result.files[name] || result.files[name].length === 0);
  if (result.exitCode !== 0 || missing.length > 0) {
    throw new Error(`ffmpeg failed (exit ${result.exitCode}): ${result.log.slice(-600)}`);
  }
  return { files: result.files, log: result.log };
}

/** The one output of a run. */
export async function ffmpegOutput(run: Omit<FfmpegRun, 'outputs'>, output: string): Promise<Uint8Array> {
  const { files } = await ffmpeg({ ...run, outputs: [output] });
  return files[output] as Uint8Array;
}

/** Flags that keep ffmpeg's output byte-identical between runs (no version strings or dates). */
export const BITEXACT = ['-fflags', '+bitexact', '-flags:v', '+bitexact', '-flags:a', '+bitexact', '-map_metadata', '-1'] as const;

/** H.264 as browsers play it; `veryfast` is ~2× quicker than `medium` in WASM for a slightly larger file. */
export const H264_OUTPUT = ['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23', '-pix_fmt', 'yuv420p', '-movflags', '+faststart'] as const;

export const AAC_OUTPUT = ['-c:a', 'aac', '-b:a', '128k'] as const;
