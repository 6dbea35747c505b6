import { zipSync, type Zippable } from 'fflate';

/**
 * The export's zip: the timeline files and the media beside them. Media are stored as they are
 * (MP4 and WAV gain nothing from deflate and would only cost time); text files are deflated.
 * fflate runs the same in the browser and in Node, so tests read back the very bytes offered.
 */
export interface ZipEntry {
  name: string;
  data: Uint8Array;
}

const TEXT_FILE = /\.(otio|edl|srt|txt|json)$/i;

export function buildZip(entries: readonly ZipEntry[]): Uint8Array {
  const files: Zippable = {};
  for (const entry of entries) {
    if (entry.name in files) throw new Error(`The zip would hold ${entry.name} twice.`);
    files[entry.name] = [entry.data, { level: TEXT_FILE.test(entry.name) ? 6 : 0 }];
  }
  return zipSync(files);
}
