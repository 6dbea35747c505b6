/**
 * The `espeak-ng` package ships no types: the few parts of its Emscripten module that espeak.ts
 * uses (the options of its factory and the in-memory file system).
 */
declare module 'espeak-ng' {
  export interface ESpeakNgOptions {
    /** eSpeak NG's command line, without the program name. */
    arguments: string[];
    /** Receives each line eSpeak writes to stdout. */
    print(line: string): void;
    /** Receives each line eSpeak (or the Emscripten runtime) writes to stderr. */
    printErr(line: string): void;
    /** Called when eSpeak exits; must throw `toThrow` to unwind the WebAssembly stack. */
    quit(status: number, toThrow: unknown): never;
    /** Instantiates the WebAssembly module with Emscripten's imports; returns `{}` when it answers later through `receive`. */
    instantiateWasm(imports: WebAssembly.Imports, receive: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void): WebAssembly.Exports;
  }

  export interface ESpeakNgModule {
    FS: { readFile(path: string): Uint8Array };
  }

  /** Runs eSpeak NG once (its `main`) on a new instance; resolves when it has exited. */
  export default function ESpeakNg(options: ESpeakNgOptions): Promise<ESpeakNgModule>;
}
