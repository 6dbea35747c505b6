import { RATIO_SIZES } from '../canvas-size.ts';
import { promptPalette, sceneSvg } from '../generated-scene.ts';
import { synthesiseEffect } from '../audio-synth.ts';
import { promptWords } from '../palette.ts';
import type { RenderedVideo, RenderInputImage, VideoEditRequest } from '../provider.ts';
import { RenderInputError, RenderRejectedError } from '../render-errors.ts';
import { hashParts } from '../seeded-random.ts';
import { encodeWav } from '../wav-writer.ts';
import { renderEffectVideo } from './effects.ts';
import { AAC_OUTPUT, BITEXACT, ffmpegOutput, H264_OUTPUT } from './ffmpeg.ts';
import { finishVideo, RESULT_NAMES } from './finish.ts';
import { renderLipSync } from './lip-sync.ts';
import { placedLogo } from './logo.ts';
import { probeBytes, type DetailedProbe } from './probe.ts';
import { hexToRgb, meanColour, sizeWithLongSide, type Size } from './raster.ts';
import { encodeRgba, loadPicture, readInputFile, svgToRgba } from './sources.ts';
import { MAX_INPUT_SECONDS, videoFrame } from './video-input.ts';

/**
 * The video tools (SPEC §7 video/*). Edits of an input video are ffmpeg filter graphs: crop,
 * enhance, sound effect, reframe, attach audio, replace background, restyle. Effects and lip sync
 * draw their frames in JS (effects.ts, lip-sync.ts). Every output keeps the input's length, up to
 * MAX_INPUT_SECONDS (longer inputs are cut).
 */

/** Strict audio sync: the job fails when the lengths differ by more than this (contract §1). */
const STRICT_SYNC_TOLERANCE_SECONDS = 0.1;
/** The job engine appends "Your credits were refunded." to a rejected render's message. */
export const STRICT_SYNC_MESSAGE = 'The audio and the video differ in length by more than 0.1 s.';
/** Edits work on the input at most this large (long side): enough for the stand-ins, bearable in WASM. */
const EDIT_MAX_LONG_SIDE = 1280;
/** Enhance upscales up to this long side. */
const ENHANCE_MAX_LONG_SIDE = 1920;
const ENHANCE_FACTORS: Readonly<Record<string, number>> = { DeepClean: 1, '2X&DeepClean': 2, '4X&DeepClean': 4 };

interface SourceVideo {
  bytes: Uint8Array;
  probe: DetailedProbe;
  /** The size the edit works at: the input's, capped, sides even. */
  size: Size;
  /** Seconds processed: the input's length, at most MAX_INPUT_SECONDS. */
  seconds: number;
}

const inputOf = (request: VideoEditRequest, field: string): RenderInputImage | undefined => request.inputs.find((input) => input.field === field);
const text = (value: unknown): string => (typeof value === 'string' ? value : '');

async function sourceVideo(request: VideoEditRequest, field = 'video_url'): Promise<SourceVideo> {
  const input = inputOf(request, field);
  if (!input) throw new RenderInputError(`This tool needs a video (${field}).`);
  const bytes = await readInputFile(input);
  const probe = await probeBytes(bytes, 'in.video');
  if (!probe.hasVideo || !probe.width || !probe.height) throw new RenderInputError(`The file given as ${field} is not a video this tool can read.`);
  const longSide = Math.min(EDIT_MAX_LONG_SIDE, Math.max(probe.width, probe.height));
  return { bytes, probe, size: sizeWithLongSide(probe.width / probe.height, longSide), seconds: Math.min(probe.durationSeconds, MAX_INPUT_SECONDS) };
}

async function sourceAudio(request: VideoEditRequest): Promise<{ bytes: Uint8Array; seconds: number }> {
  const input = inputOf(request, 'audio_url');
  if (!input) throw new RenderInputError('This tool needs an audio file (audio_url).');
  const bytes = await readInputFile(input);
  const probe = await probeBytes(bytes, 'in.audio');
  if (!probe.hasAudio) throw new RenderInputError('The file given as audio_url has no sound.');
  return { bytes, seconds: probe.durationSeconds };
}

/** The ratio an edit asks for (`aspect_ratio`), or null when it names none of the known ratios. */
function askedRatio(request: VideoEditRequest): number | null {
  const size = RATIO_SIZES[text(request.args.aspect_ratio)];
  return size ? size.width / size.height : null;
}

const even = (value: number) => Math.max(2, Math.round(value / 2) * 2);
const hexColour = (rgb: readonly number[]) => `0x${rgb.map((value) => Math.round(value).toString(16).padStart(2, '0')).join('')}`;

/** x264 settings for the output size: above HD the WASM encoder needs its fastest preset. */
const h264For = (size: Size): string[] => (size.width * size.height > 1280 * 720 ? [...H264_OUTPUT.map((arg) => (arg === 'veryfast' ? 'ultrafast' : arg))] : [...H264_OUTPUT]);

interface Transcode {
  /** Extra inputs after the source video (input 0): name → bytes, with the arguments that open them. */
  inputs?: { name: string; bytes: Uint8Array; before?: string[] }[];
  /** Filter graph from [0:v] (and other inputs) to [v]; audio to [a] when `audio` is 'graph'. */
  graph: string;
  size: Size;
  /** Where the output's sound comes from. */
  audio: 'source' | 'graph' | { input: number } | 'none';
  seconds: number;
  logo: boolean;
  /** Arguments put before the source video's -i (e.g. -stream_loop). */
  sourceBefore?: string[];
}

/** Runs one edit: the source video (cut to `seconds`) through a filter graph, the logo on top, H.264 + AAC out. */
async function transcode(source: SourceVideo, plan: Transcode): Promise<Uint8Array> {
  const logo = plan.logo ? await placedLogo(plan.size) : null;
  const files: Record<string, Uint8Array> = { 'in.video': source.bytes };
  const args = [...(plan.sourceBefore ?? []), '-i', 'in.video'];
  for (const input of plan.inputs ?? []) {
    files[input.name] = input.bytes;
    args.push(...(input.before ?? []), '-i', input.name);
  }
  let graph = plan.graph;
  if (logo) {
    files['logo.png'] = logo.png;
    args.push('-i', 'logo.png');
    graph = `${graph.replace(/\[v\]$/, '[unbranded]')};[unbranded][${(plan.inputs ?? []).length + 1}:v]overlay=${logo.left}:${logo.top}[v]`;
  }
  args.push('-filter_complex', graph, '-map', '[v]');
  if (plan.audio === 'source' && source.probe.hasAudio) args.push('-map', '0:a:0', ...AAC_OUTPUT);
  else if (plan.audio === 'graph') args.push('-map', '[a]', ...AAC_OUTPUT);
  else if (typeof plan.audio === 'object') args.push('-map', `${plan.audio.input}:a:0`, ...AAC_OUTPUT);
  args.push(...h264For(plan.size), '-t', plan.seconds.toFixed(3), ...BITEXACT, 'out.mp4');
  return ffmpegOutput({ inputs: files, args }, 'out.mp4');
}

const scaled = (size: Size) => `scale=${size.width}:${size.height}:flags=bicubic,setsar=1`;

/** Crop: the centre of the video at the asked ratio. */
async function cropToRatio(request: VideoEditRequest): Promise<Uint8Array> {
  const source = await sourceVideo(request);
  const ratio = askedRatio(request) ?? 1;
  const { width, height } = source.size;
  const crop = width / height > ratio ? { width: even(height * ratio), height } : { width, height: even(width / ratio) };
  return transcode(source, {
    graph: `[0:v]${scaled(source.size)},crop=${crop.width}:${crop.height},setsar=1[v]`,
    size: crop,
    audio: 'source',
    seconds: source.seconds,
    logo: request.logo,
  });
}

/** Enhance: ×1/×2/×4 (long side ≤ 1920), denoised before scaling and sharpened after. */
async function enhance(request: VideoEditRequest): Promise<Uint8Array> {
  const source = await sourceVideo(request);
  const factor = ENHANCE_FACTORS[text(request.args.enhance_mode)] ?? 1;
  const { width = source.size.width, height = source.size.height } = source.probe;
  const size = sizeWithLongSide(width / height, Math.min(ENHANCE_MAX_LONG_SIDE, Math.max(width, height) * factor));
  return transcode(source, {
    graph: `[0:v]hqdn3d=4:3:6:4.5,scale=${size.width}:${size.height}:flags=lanczos,unsharp=5:5:0.9:5:5:0,setsar=1[v]`,
    size,
    audio: 'source',
    seconds: source.seconds,
    logo: request.logo,
  });
}

/** Sound effect: the prompt's sound, synthesised for the video's length, mixed under its own sound. */
async function soundEffect(request: VideoEditRequest): Promise<Uint8Array> {
  const source = await sourceVideo(request);
  const samples = synthesiseEffect(text(request.args.prompt) || 'ambient', Math.max(0.5, source.seconds), `${request.seed}${request.model}`);
  const audio = source.probe.hasAudio ? '[0:a][1:a]amix=inputs=2:duration=first:dropout_transition=0:normalize=0:weights=1 0.7[a]' : '[1:a]apad[a]';
  return transcode(source, {
    inputs: [{ name: 'effect.wav', bytes: encodeWav(samples) }],
    graph: `[0:v]${scaled(source.size)}[v];${audio}`,
    size: source.size,
    audio: 'graph',
    seconds: source.seconds,
    logo: request.logo,
  });
}

/**
 * Reframe: the whole video inside a canvas of the asked ratio, the new space filled with a
 * blurred, zoomed copy of it (outpainting's stand-in), tinted by the prompt's colour.
 */
async function reframe(request: VideoEditRequest): Promise<Uint8Array> {
  const source = await sourceVideo(request);
  const ratio = askedRatio(request) ?? 16 / 9;
  const { width, height } = source.size;
  const wide = width / height < ratio;
  let canvas = wide ? { width: even(height * ratio), height } : { width, height: even(width / ratio) };
  let inner = source.size;
  if (Math.max(canvas.width, canvas.height) > EDIT_MAX_LONG_SIDE) {
    const shrink = EDIT_MAX_LONG_SIDE / Math.max(canvas.width, canvas.height);
    canvas = { width: even(canvas.width * shrink), height: even(canvas.height * shrink) };
    inner = { width: even(width * shrink), height: even(height * shrink) };
  }
  // ffmpeg refuses a blur radius over a quarter of the frame's short side (the chroma planes are
  // half size), so a small video gets a smaller blur.
  const blur = Math.max(1, Math.min(20, Math.floor(Math.min(canvas.width, canvas.height) / 4) - 1));
  const prompt = text(request.args.prompt);
  const tint = prompt.trim() ? `,drawbox=x=0:y=0:w=iw:h=ih:color=${hexColour(hexToRgb(promptPalette(prompt, request.seed)[2]))}@0.25:t=fill` : '';
  return transcode(source, {
    graph:
      `[0:v]split[a][b];[a]scale=${canvas.width}:${canvas.height}:force_original_aspect_ratio=increase,crop=${canvas.width}:${canvas.height},` +
      `boxblur=${blur}:2,eq=brightness=-0.05${tint}[bg];[b]scale=${inner.width}:${inner.height},setsar=1[fg];` +
      `[bg][fg]overlay=(W-w)/2:(H-h)/2,setsar=1[v]`,
    size: canvas,
    audio: 'source',
    seconds: source.seconds,
    logo: request.logo,
  });
}

/** Attach audio, in the four sync modes of SPEC §9. */
async function attachAudio(request: VideoEditRequest): Promise<Uint8Array> {
  const source = await sourceVideo(request);
  const audio = await sourceAudio(request);
  const mode = text(request.args.mode) || 'MatchVideo';
  const video = `[0:v]${scaled(source.size)}[v]`;
  const base = { size: source.size, logo: request.logo };
  switch (mode) {
    case 'PadAudio':
      // Silence after the audio when it is shorter, cut when it is longer.
      return transcode(source, { ...base, inputs: [{ name: 'in.audio', bytes: audio.bytes }], graph: `${video};[1:a]apad[a]`, audio: 'graph', seconds: source.seconds });
    case 'MatchAudio':
      // The video loops (or is cut) to the audio's length.
      return transcode(source, {
        ...base,
        sourceBefore: ['-stream_loop', '-1'],
        inputs: [{ name: 'in.audio', bytes: audio.bytes }],
        graph: video,
        audio: { input: 1 },
        seconds: Math.min(audio.seconds, MAX_INPUT_SECONDS),
      });
    case 'Strict':
      if (Math.abs(audio.seconds - source.probe.durationSeconds) > STRICT_SYNC_TOLERANCE_SECONDS) {
        throw new RenderRejectedError('failed', STRICT_SYNC_MESSAGE);
      }
      return transcode(source, { ...base, inputs: [{ name: 'in.audio', bytes: audio.bytes }], graph: video, audio: { input: 1 }, seconds: source.seconds });
    default:
      // MatchVideo: the audio loops (or is cut) to the video's length.
      return transcode(source, {
        ...base,
        inputs: [{ name: 'in.audio', bytes: audio.bytes, before: ['-stream_loop', '-1'] }],
        graph: video,
        audio: { input: 1 },
        seconds: source.seconds,
      });
  }
}

/**
 * Replace background: a colour-key matte (pixels close to the colour around the first frame's
 * border are background) over the new background picture, video or, with only a prompt, the
 * generated scene of the prompt.
 */
async function replaceBackground(request: VideoEditRequest): Promise<Uint8Array> {
  const source = await sourceVideo(request);
  const border = await borderColour(source);
  const bgImage = inputOf(request, 'bg_image_url');
  const bgVideo = inputOf(request, 'bg_video_url');
  let background: { name: string; bytes: Uint8Array; before: string[] };
  if (bgVideo) background = { name: 'bg.video', bytes: await readInputFile(bgVideo), before: ['-stream_loop', '-1'] };
  else if (bgImage) background = { name: 'bg.png', bytes: await encodeRgba(await loadPicture(bgImage), 'png'), before: ['-loop', '1', '-framerate', '24'] };
  else {
    const scene = await svgToRgba(sceneSvg({ size: source.size, prompt: text(request.args.prompt), model: request.model, seed: request.seed, caption: false }), source.size);
    background = { name: 'bg.png', bytes: await encodeRgba(scene, 'png'), before: ['-loop', '1', '-framerate', '24'] };
  }
  const { width, height } = source.size;
  return transcode(source, {
    inputs: [background],
    graph:
      `[1:v]scale=${width}:${height}:force_original_aspect_ratio=increase,crop=${width}:${height},setsar=1,format=yuva420p[bg];` +
      `[0:v]${scaled(source.size)},format=yuva420p,colorkey=${hexColour(border)}:0.3:0.12[fg];[bg][fg]overlay=shortest=1,format=yuv420p[v]`,
    size: source.size,
    audio: 'source',
    seconds: source.seconds,
    logo: request.logo,
  });
}

/** The mean colour of the first frame's outer ring: the backdrop the matte keys out. */
async function borderColour(source: SourceVideo): Promise<[number, number, number]> {
  const small = sizeWithLongSide(source.size.width / source.size.height, 64);
  const frame = await videoFrame(source.bytes, 'first', source.probe.durationSeconds, small);
  const ring = 3;
  const sums = [0, 0, 0];
  let count = 0;
  for (let y = 0; y < frame.height; y += 1) {
    for (let x = 0; x < frame.width; x += 1) {
      if (x >= ring && x < frame.width - ring && y >= ring && y < frame.height - ring) continue;
      const offset = (y * frame.width + x) * 4;
      for (let channel = 0; channel < 3; channel += 1) sums[channel] = (sums[channel] ?? 0) + (frame.data[offset + channel] ?? 0);
      count += 1;
    }
  }
  return sums.map((sum) => sum / Math.max(1, count)) as [number, number, number];
}

/** Restyle looks from the prompt's words; a prompt naming none gets one chosen by its hash. */
const RESTYLE_LOOKS: readonly { words: readonly string[]; filter: (size: Size) => string }[] = [
  { words: ['sketch', 'pencil', 'drawing', 'charcoal', 'lineart'], filter: () => 'edgedetect=low=0.08:high=0.25,negate,hue=s=0' },
  { words: ['comic', 'cartoon', 'anime', 'manga', 'ink', 'toon'], filter: () => 'edgedetect=mode=colormix:high=0.2,eq=saturation=1.5' },
  { words: ['noir', 'monochrome', 'grayscale', 'greyscale', 'black'], filter: () => 'hue=s=0,eq=contrast=1.35' },
  { words: ['vintage', 'sepia', 'retro', 'old', 'film'], filter: () => 'colorchannelmixer=.393:.769:.189:0:.349:.686:.168:0:.272:.534:.131,noise=alls=8:allf=t' },
  { words: ['neon', 'cyberpunk', 'synthwave', 'glow', 'futuristic'], filter: () => 'hue=h=40:s=1.8,eq=contrast=1.25:brightness=0.02' },
  { words: ['painting', 'oil', 'watercolor', 'watercolour', 'impressionist', 'painterly'], filter: () => 'median=radius=3,eq=saturation=1.3' },
  {
    words: ['pixel', 'pixelated', '8bit', 'minecraft', 'lego', 'voxel'],
    filter: (size) => `scale=${Math.max(2, Math.round(size.width / 8))}:${Math.max(2, Math.round(size.height / 8))}:flags=neighbor,scale=${size.width}:${size.height}:flags=neighbor`,
  },
];

const POSTERISE = (levels: number) => {
  const step = Math.round(256 / levels);
  const expression = `floor(val/${step})*${step}+${Math.round(step / 2)}`;
  return `lutrgb=r='${expression}':g='${expression}':b='${expression}'`;
};

/** Restyle: the prompt's look, posterised to a few levels and washed with its palette (or the style picture's colour). */
async function modify(request: VideoEditRequest): Promise<Uint8Array> {
  const source = await sourceVideo(request);
  const prompt = text(request.args.prompt);
  const words = new Set(promptWords(prompt));
  const look = RESTYLE_LOOKS.find((entry) => entry.words.some((word) => words.has(word))) ?? RESTYLE_LOOKS[hashParts('restyle', prompt, request.seed) % RESTYLE_LOOKS.length];
  const style = inputOf(request, 'image_url');
  const tint = style ? meanColour(await loadPicture(style)) : hexToRgb(promptPalette(prompt, request.seed)[2]);
  return transcode(source, {
    graph: `[0:v]${scaled(source.size)},${look?.filter(source.size) ?? 'null'},${POSTERISE(6)},drawbox=x=0:y=0:w=iw:h=ih:color=${hexColour(tint)}@0.22:t=fill,setsar=1[v]`,
    size: source.size,
    audio: 'source',
    seconds: source.seconds,
    logo: request.logo,
  });
}

async function editOperation(request: VideoEditRequest): Promise<Uint8Array> {
  switch (request.model) {
    case 'EnhanceVideo':
      return enhance(request);
    case 'SoundEffect':
      return soundEffect(request);
    case 'LumaReframeVideo':
      return reframe(request);
    case 'AttachAudio':
      return attachAudio(request);
    default:
      return cropToRatio(request);
  }
}

async function editedVideo(request: VideoEditRequest): Promise<Uint8Array> {
  switch (request.tool) {
    case 'video-effects':
      return renderEffectVideo(request);
    case 'lip-sync':
      return renderLipSync(request);
    case 'replace-background-video':
      return replaceBackground(request);
    case 'modify-video':
      return modify(request);
    default:
      return editOperation(request);
  }
}

export async function editVideo(request: VideoEditRequest): Promise<RenderedVideo> {
  return finishVideo(await editedVideo(request), RESULT_NAMES);
}
