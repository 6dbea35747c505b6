import sharp from 'sharp';
import type { RenderedVideo } from '../provider.ts';
import { BITEXACT, ffmpeg } from './ffmpeg.ts';
import { parseProbeLog } from './probe.ts';

/**
 * Every video leaves the engine the same way: an MP4 with its index at the front (a browser can
 * start playing before the whole file arrived), a GIF preview (≤ 320 px wide, 10 fps, its own
 * palette) and a JPEG of the first frame, from one ffmpeg run.
 */

export const GIF_MAX_WIDTH = 320;
export const GIF_FPS = 10;

export interface FileNames {
  video: string;
  gif: string;
  thumbnail: string;
}

/** A video tool's files (contract §1: `result.mp4`, `result.gif`, `thumbnail.jpg`). */
export const RESULT_NAMES: FileNames = { video: 'result.mp4', gif: 'result.gif', thumbnail: 'thumbnail.jpg' };

/** A creation video's files (SPEC §3): `video.mp4`, or `video_logo.mp4` when the guest's logo is burnt in. */
export const creationNames = (logo: boolean): FileNames => {
  const stem = logo ? 'video_logo' : 'video';
  return { video: `${stem}.mp4`, gif: `${stem}.gif`, thumbnail: 'thumbnail.jpg' };
};

/** The GIF's frames ([g]) and the first frame ([first]) from one decode of the video. */
const PREVIEW_FILTER =
  `[0:v]split[video][still];[video]fps=${GIF_FPS},scale='min(${GIF_MAX_WIDTH},iw)':-2:flags=lanczos,split[a][b];` +
  '[a]palettegen=max_colors=128:stats_mode=diff[p];[b][p]paletteuse=dither=bayer:bayer_scale=3[g];[still]trim=end_frame=1[first]';

export async function finishVideo(mp4: Uint8Array, names: FileNames): Promise<RenderedVideo> {
  const { files, log } = await ffmpeg({
    inputs: { 'in.mp4': mp4 },
    args: [
      '-i', 'in.mp4', '-filter_complex', PREVIEW_FILTER,
      '-map', '0:v', '-map', '0:a?', '-c', 'copy', '-movflags', '+faststart', ...BITEXACT, 'out.mp4',
      '-map', '[g]', '-loop', '0', ...BITEXACT, 'out.gif',
      // PNG, made a JPEG by sharp: this WASM build's MJPEG encoder crashes on some frames.
      '-map', '[first]', '-frames:v', '1', ...BITEXACT, 'first.png',
    ],
    outputs: ['out.mp4', 'out.gif', 'first.png'],
  });
  const thumbnail = await sharp(files['first.png'] as Uint8Array).jpeg({ quality: 85 }).toBuffer();
  // The log starts with ffmpeg's description of the input: the same picture and length as the output.
  const described = parseProbeLog(log);
  const buffer = (name: string) => Buffer.from(files[name] as Uint8Array);
  return {
    video: { name: names.video, contentType: 'video/mp4', data: buffer('out.mp4') },
    gif: { name: names.gif, contentType: 'image/gif', data: buffer('out.gif') },
    thumbnail: { name: names.thumbnail, contentType: 'image/jpeg', data: thumbnail },
    width: described.width ?? 0,
    height: described.height ?? 0,
    durationSeconds: described.durationSeconds ?? 0,
  };
}
