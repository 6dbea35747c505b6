/**
 * Downloads one file through its signed link (a job's result, SPEC §4: links expire), reading it
 * as it arrives so the caller can show how much came: the AI Story export's zip fetches the
 * scenes' videos and the sound this way. The link carries its own signature: no Authorization.
 */

interface DownloadProgress {
  loaded: number;
  /** From Content-Length; null when the server did not say. */
  total: number | null;
}

export class FileDownloadError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
  ) {
    super(message);
    this.name = 'FileDownloadError';
  }
}

export async function downloadFile(url: string, options: { signal?: AbortSignal; onProgress?: (progress: DownloadProgress) => void } = {}): Promise<Uint8Array> {
  let response: Response;
  try {
    response = await fetch(url, { signal: options.signal, credentials: 'omit' });
  } catch (error) {
    if (options.signal?.aborted) throw error;
    throw new FileDownloadError('the network did not answer', null);
  }
  if (!response.ok) throw new FileDownloadError(response.status === 403 ? 'its link has expired' : `the server answered ${response.status}`, response.status);
  const length = Number(response.headers.get('content-length'));
  const total = Number.isFinite(length) && length > 0 ? length : null;
  if (!response.body) {
    const data = new Uint8Array(await response.arrayBuffer());
    options.onProgress?.({ loaded: data.byteLength, total: data.byteLength });
    return data;
  }
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let loaded = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    loaded += value.byteLength;
    options.onProgress?.({ loaded, total });
  }
  const data = new Uint8Array(loaded);
  let at = 0;
  for (const chunk of chunks) {
    data.set(chunk, at);
    at += chunk.byteLength;
  }
  return data;
}
