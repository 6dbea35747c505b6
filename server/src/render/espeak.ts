import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type ESpeakNg from 'espeak-ng';

/**
 * eSpeak NG compiled to WebAssembly (the `espeak-ng` package, GPL-3.0-or-later): the local
 * engine's real text to speech, offline and with no system package. The package is eSpeak's
 * command line as an Emscripten module, so a run is one `espeak-ng -w speech.wav …` on a fresh
 * instance (eSpeak keeps C globals between runs, so an instance is never reused) whose WAV is read
 * back from the instance's in-memory file system. Arguments go to eSpeak's `main` as an array:
 * there is no shell anywhere.
 *
 * Compiling the 18 MB module takes most of a cold run (~0.4 s), so each thread (the server's and
 * every video worker's: lip sync speaks there) compiles it once and instantiates the compiled
 * module for every run. A run blocks its thread while eSpeak synthesises (a few tenths of a
 * second for a paragraph).
 */

type CreateEspeak = typeof ESpeakNg;

const OUTPUT = 'speech.wav';
/** Lines of eSpeak's stderr kept for an error message. */
const MAX_ERROR_LINES = 8;

let loading: Promise<{ create: CreateEspeak; compiled: WebAssembly.Module }> | null = null;

function loadEspeak(): Promise<{ create: CreateEspeak; compiled: WebAssembly.Module }> {
  loading ??= (async () => {
    const require = createRequire(import.meta.url);
    const wasmPath = path.join(path.dirname(require.resolve('espeak-ng')), 'espeak-ng.wasm');
    const [{ default: create }, compiled] = await Promise.all([import('espeak-ng'), readFile(wasmPath).then((bytes) => WebAssembly.compile(bytes))]);
    return { create, compiled };
  })();
  // A failed load (a missing file) is tried again by the next run rather than remembered.
  loading.catch(() => {
    loading = null;
  });
  return loading;
}

/** Runs eSpeak NG with these arguments (after `-w <file>`) and answers the WAV file it wrote. */
export async function runEspeak(args: readonly string[]): Promise<Uint8Array> {
  const { create, compiled } = await loadEspeak();
  const errors: string[] = [];
  // Written by eSpeak's exit (a callback, so an object: TypeScript would narrow a plain `let`).
  const exit: { status: number | null } = { status: null };
  let failInstantiation: (error: unknown) => void = () => undefined;
  const instantiationFailed = new Promise<never>((_resolve, reject) => {
    failInstantiation = reject;
  });
  const espeak = await Promise.race([
    create({
      arguments: ['-w', OUTPUT, ...args],
      print: () => undefined,
      printErr: (line) => {
        if (errors.length < MAX_ERROR_LINES && !line.includes('keepRuntimeAlive')) errors.push(line);
      },
      // Emscripten's own quit sets process.exitCode to eSpeak's status: a failed run must not
      // decide the server's (or the test runner's) exit code.
      quit: (status, toThrow) => {
        exit.status = status;
        throw toThrow;
      },
      instantiateWasm: (imports, receive) => {
        // eSpeak seeds its random numbers from time(): a frozen clock makes the same text and
        // voice give the same bytes on every run.
        const env = { ...imports.env, emscripten_date_now: () => 0 };
        WebAssembly.instantiate(compiled, { ...imports, env })
          .then((instance) => {
            // eSpeak's whole run happens inside `receive`, synchronously. While it starts, it makes
            // hundreds of failed file lookups, and Emscripten's file system records a stack trace
            // for each (a fifth of a short run): traces are off for exactly that long.
            const traceLimit = Error.stackTraceLimit;
            Error.stackTraceLimit = 0;
            try {
              receive(instance, compiled);
            } finally {
              Error.stackTraceLimit = traceLimit;
            }
          })
          // A crash inside eSpeak's main also lands here (after `quit` recorded its status).
          .catch((error: unknown) => failInstantiation(error));
        return {};
      },
    }),
    instantiationFailed,
  ]);
  if (exit.status !== null && exit.status !== 0) {
    throw new Error(`eSpeak NG failed (exit ${exit.status}): ${errors.join(' ').slice(0, 300)}`);
  }
  try {
    return espeak.FS.readFile(OUTPUT);
  } catch (error) {
    throw new Error(`eSpeak NG wrote no speech: ${errors.join(' ').slice(0, 300)}`, { cause: error });
  }
}

/** The samples (−1…1) and rate of a 16-bit PCM WAV (the format eSpeak writes), mono or the first channel. */
export function decodePcm16Wav(data: Uint8Array): { samples: Float32Array; sampleRate: number } {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const ascii = (at: number) => String.fromCharCode(...data.subarray(at, at + 4));
  if (data.length < 12 || ascii(0) !== 'RIFF' || ascii(8) !== 'WAVE') throw new Error('eSpeak NG wrote something that is not a WAV file.');
  let format: { channels: number; sampleRate: number; bits: number; audioFormat: number } | null = null;
  let offset = 12;
  while (offset + 8 <= data.length) {
    const id = ascii(offset);
    const size = view.getUint32(offset + 4, true);
    const body = offset + 8;
    if (id === 'fmt ' && body + 16 <= data.length) {
      format = {
        audioFormat: view.getUint16(body, true),
        channels: view.getUint16(body + 2, true),
        sampleRate: view.getUint32(body + 4, true),
        bits: view.getUint16(body + 14, true),
      };
    } else if (id === 'data') {
      if (!format || format.audioFormat !== 1 || format.bits !== 16 || format.channels < 1 || format.sampleRate <= 0) {
        throw new Error('eSpeak NG wrote a WAV file that is not 16-bit PCM.');
      }
      const frameBytes = 2 * format.channels;
      const frames = Math.floor(Math.min(size, data.length - body) / frameBytes);
      const samples = new Float32Array(frames);
      for (let frame = 0; frame < frames; frame += 1) samples[frame] = view.getInt16(body + frame * frameBytes, true) / 32768;
      return { samples, sampleRate: format.sampleRate };
    }
    offset = body + size + (size % 2);
  }
  throw new Error('eSpeak NG wrote a WAV file without sound data.');
}

/** Linear-interpolation resampling (eSpeak speaks at 22 050 Hz; the engine's rate may differ). */
export function resample(samples: Float32Array, fromRate: number, toRate: number): Float32Array {
  if (fromRate === toRate) return samples;
  const length = Math.round((samples.length * toRate) / fromRate);
  const resampled = new Float32Array(length);
  for (let index = 0; index < length; index += 1) {
    const at = (index * fromRate) / toRate;
    const before = Math.floor(at);
    const weight = at - before;
    resampled[index] = (samples[before] ?? 0) * (1 - weight) + (samples[Math.min(before + 1, samples.length - 1)] ?? 0) * weight;
  }
  return resampled;
}
