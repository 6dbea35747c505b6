import type { RenderedVideo } from '../provider.ts';
import { RenderRejectedError } from '../render-errors.ts';
import { AAC_OUTPUT, BITEXACT, ffmpegOutput, H264_OUTPUT } from './ffmpeg.ts';
import { finishVideo, type FileNames } from './finish.ts';
import { placedLogo } from './logo.ts';
import { probeBytes } from './probe.ts';

/**
 * A video a remote provider made, after Kinora downloaded it: checked to be a video, the guest's
 * logo burnt in (SPEC §6) when asked, then finished like every local video (faststart MP4, GIF
 * preview, first-frame thumbnail), so every result is served from Kinora's storage the same way.
 */
export async function finishDownloadedVideo(data: Uint8Array, names: FileNames, logo: boolean): Promise<RenderedVideo> {
  const probe = await probeBytes(data, 'download');
  if (!probe.hasVideo || !probe.width || !probe.height) {
    throw new RenderRejectedError('failed', 'The model answered a file that is not a video.');
  }
  let mp4 = data;
  const placed = logo ? await placedLogo({ width: probe.width, height: probe.height }) : null;
  if (placed) {
    mp4 = await ffmpegOutput(
      {
        inputs: { 'in.mp4': data, 'logo.png': placed.png },
        args: [
          '-i', 'in.mp4', '-i', 'logo.png',
          '-filter_complex', `[0:v][1:v]overlay=${placed.left}:${placed.top}[v]`,
          '-map', '[v]', '-map', '0:a?', ...AAC_OUTPUT, ...H264_OUTPUT, ...BITEXACT, 'out.mp4',
        ],
      },
      'out.mp4',
    );
  }
  return finishVideo(mp4, names);
}
