/**
 * Prints Kinora's fal.ai model map (server/src/render/fal/models.ts) as a Markdown table and writes
 * it into README.md between `<!-- fal-models:start -->` and `<!-- fal-models:end -->`, so the
 * README's table is never kept by hand. Run: `node --import tsx scripts/fal-models-table.ts`.
 * tests/server/render/fal-models.test.ts fails when the README's block is not this output.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FAL_MODELS, FAL_TEXT_CALL, FAL_VISION_CALL, falCoverage } from '../server/src/render/fal/models.ts';
import type { FalCall } from '../server/src/render/fal/types.ts';
import { ASSET_TOOLS } from '../src/config/asset-tools.ts';
import { MODEL_COSTS } from '../src/config/model-costs.ts';
import { MOTION_MODELS, type VideoMotionModel } from '../src/config/motion-models.ts';
import { MOTION_MODES, TRY_ON_VIDEO_MODEL } from '../src/config/video-creation.ts';

export const TABLE_START = '<!-- fal-models:start -->';
export const TABLE_END = '<!-- fal-models:end -->';

/**
 * The call keys a motion model can be asked for (server/src/routes/video-creation.ts): Try On
 * Video only on its own page; every other model on AI Motion (a transition only with an end
 * frame), character animate and extend video.
 */
export function motionCallKeys(model: Pick<VideoMotionModel, 'value' | 'end_frame'>): string[] {
  if (model.value === TRY_ON_VIDEO_MODEL) return ['try-on'];
  const modes = MOTION_MODES.map((mode) => mode.value).filter((mode) => mode !== 'transition' || model.end_frame === 1);
  return [...modes, 'character-animate', 'extend-video'];
}

/** Every model Kinora sells, in catalogue order, with the call keys its pages can ask for. */
export function kinoraModels(): { model: string; keys: string[] }[] {
  const tools = ASSET_TOOLS.map((option) => ({ model: option.value, keys: [...option.available_tools] }));
  const motion = MOTION_MODELS.map((model) => ({ model: model.value, keys: motionCallKeys(model) }));
  const listed = new Set([...tools, ...motion].map((entry) => entry.model));
  const unlisted = Object.keys(MODEL_COSTS)
    .filter((model) => !listed.has(model))
    .map((model) => ({ model, keys: [] }));
  return [...tools, ...motion, ...unlisted];
}

const code = (text: string): string => `\`${text}\``;
const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const endpointLink = (call: FalCall): string => `[${code(call.endpoint)}](${call.docs})`;

/** One row's fal column: the keys grouped by endpoint, then the keys fal cannot serve. */
function endpointsCell(keys: readonly string[], calls: Readonly<Record<string, FalCall>>): string {
  const byEndpoint = new Map<string, { call: FalCall; keys: string[] }>();
  const missing: string[] = [];
  for (const key of keys) {
    const call = calls[key];
    if (!call) {
      missing.push(key);
      continue;
    }
    const group = byEndpoint.get(call.endpoint) ?? { call, keys: [] };
    group.keys.push(key);
    byEndpoint.set(call.endpoint, group);
  }
  const lines = [...byEndpoint.values()].map(({ call, keys: served }) => `${served.map(code).join(', ')}: ${endpointLink(call)}`);
  if (missing.length > 0) lines.push(`not on fal: ${missing.map(code).join(', ')}`);
  return lines.join('<br>');
}

/** The Markdown the README carries between the markers. */
export function falModelsTable(): string {
  const rows = kinoraModels().map(({ model, keys }) => {
    const entry = FAL_MODELS[model];
    const fal = !entry ? 'not mapped' : entry.fal ? endpointsCell(keys, entry.calls) : `not on fal: ${entry.reason}`;
    return `| ${cell(model)} | ${keys.length > 0 ? keys.map(code).join(', ') : '—'} | ${cell(fal)} |`;
  });
  const { total, mapped } = falCoverage();
  return [
    '| Model | Kinora tools | fal endpoint(s) |',
    '|---|---|---|',
    ...rows,
    '',
    `Prompt helper and AI Story writer: ${endpointLink(FAL_TEXT_CALL)}; picture to prompt: ${endpointLink(FAL_VISION_CALL)}.`,
    '',
    `${mapped} of ${total} models run on fal.`,
  ].join('\n');
}

/** README.md with the block between the markers replaced by `table`. */
export function spliceTable(readme: string, table: string): string {
  const start = readme.indexOf(TABLE_START);
  const end = readme.indexOf(TABLE_END);
  if (start < 0 || end < start) throw new Error(`README.md has no ${TABLE_START} … ${TABLE_END} block.`);
  return `${readme.slice(0, start + TABLE_START.length)}\n${table}\n${readme.slice(end)}`;
}

/** The block between the markers, as written (what the test compares with the table). */
export function tableInReadme(readme: string): string {
  const start = readme.indexOf(TABLE_START);
  const end = readme.indexOf(TABLE_END);
  if (start < 0 || end < start) return '';
  return readme.slice(start + TABLE_START.length, end).trim();
}

export const README_PATH = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'README.md');

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const table = falModelsTable();
  const readme = await readFile(README_PATH, 'utf8');
  await writeFile(README_PATH, spliceTable(readme, table));
  process.stdout.write(`${table}\n`);
  process.stderr.write('README.md: the fal model table is written between its markers.\n');
}
