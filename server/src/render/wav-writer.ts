/**
 * PCM WAV files: writing the local engine's audio and reading an uploaded WAV's length. Only
 * what the engine needs: 16-bit integer PCM out; any PCM/float layout's header in.
 */

export const WAV_SAMPLE_RATE = 22_050;
const HEADER_BYTES = 44;
const MAX_CHUNKS = 1000;

/** Samples in −1…1 (clipped) → a 16-bit mono PCM WAV. */
export function encodeWav(samples: Float32Array, sampleRate = WAV_SAMPLE_RATE): Buffer {
  const dataBytes = samples.length * 2;
  const buffer = Buffer.alloc(HEADER_BYTES + dataBytes);
  buffer.write('RIFF', 0, 'ascii');
  buffer.writeUInt32LE(36 + dataBytes, 4);
  buffer.write('WAVE', 8, 'ascii');
  buffer.write('fmt ', 12, 'ascii');
  buffer.writeUInt32LE(16, 16);
  buffer.writeUInt16LE(1, 20); // PCM
  buffer.writeUInt16LE(1, 22); // mono
  buffer.writeUInt32LE(sampleRate, 24);
  buffer.writeUInt32LE(sampleRate * 2, 28); // byte rate
  buffer.writeUInt16LE(2, 32); // block align
  buffer.writeUInt16LE(16, 34); // bits per sample
  buffer.write('data', 36, 'ascii');
  buffer.writeUInt32LE(dataBytes, 40);
  for (let index = 0; index < samples.length; index += 1) {
    const clipped = Math.max(-1, Math.min(1, samples[index] ?? 0));
    buffer.writeInt16LE(Math.round(clipped * 32767), HEADER_BYTES + index * 2);
  }
  return buffer;
}

export interface WavInfo {
  audioFormat: number;
  channels: number;
  sampleRate: number;
  bitsPerSample: number;
  /** Bytes of sample data the header announces (as present in the file, if it is cut short). */
  dataBytes: number;
  durationSeconds: number;
}

/** Reads the `fmt ` and `data` chunks of a RIFF/WAVE file; null when they are missing or invalid. */
export function readWavInfo(data: Buffer): WavInfo | null {
  if (data.length < 12 || data.toString('ascii', 0, 4) !== 'RIFF' || data.toString('ascii', 8, 12) !== 'WAVE') {
    return null;
  }
  let format: Omit<WavInfo, 'dataBytes' | 'durationSeconds'> | null = null;
  let offset = 12;
  // Real files put `data` within a few chunks; a file of empty chunks is not read to its end.
  for (let chunk = 0; chunk < MAX_CHUNKS && offset + 8 <= data.length; chunk += 1) {
    const id = data.toString('ascii', offset, offset + 4);
    const size = data.readUInt32LE(offset + 4);
    const body = offset + 8;
    if (id === 'fmt ' && body + 16 <= data.length) {
      format = {
        audioFormat: data.readUInt16LE(body),
        channels: data.readUInt16LE(body + 2),
        sampleRate: data.readUInt32LE(body + 4),
        bitsPerSample: data.readUInt16LE(body + 14),
      };
    } else if (id === 'data') {
      if (!format || format.channels === 0 || format.sampleRate === 0 || format.bitsPerSample === 0) return null;
      const dataBytes = Math.min(size, data.length - body);
      const frameBytes = format.channels * Math.ceil(format.bitsPerSample / 8);
      return { ...format, dataBytes, durationSeconds: Math.floor(dataBytes / frameBytes) / format.sampleRate };
    }
    // Chunks are padded to an even length.
    offset = body + size + (size % 2);
  }
  return null;
}
