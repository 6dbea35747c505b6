/**
 * Output sizes of the generated pictures per aspect ratio (SPEC §9 ratios). Sides are multiples of
 * 32 near the sizes image models commonly produce, kept small so local renders stay fast.
 */

export interface Size {
  width: number;
  height: number;
}

export const RATIO_SIZES: Readonly<Record<string, Size>> = {
  '1:1': { width: 768, height: 768 },
  '16:9': { width: 1024, height: 576 },
  '4:3': { width: 896, height: 672 },
  '3:4': { width: 672, height: 896 },
  '9:16': { width: 576, height: 1024 },
};

/** The long side of a picture that keeps its source's ratio (`Origin`). */
const ORIGIN_LONG_SIDE = 768;
const DEFAULT_SIZE: Size = RATIO_SIZES['1:1'] as Size;

/** The source's ratio with its long side at `longSide` (sides even, at least 2). */
export function scaleToLongSide(source: Size, longSide = ORIGIN_LONG_SIDE): Size {
  const factor = longSide / Math.max(source.width, source.height, 1);
  const even = (value: number) => Math.max(2, Math.round((value * factor) / 2) * 2);
  return { width: even(source.width), height: even(source.height) };
}

/**
 * A known ratio gives its size; `Origin`, an absent or an unknown ratio keeps the first input's
 * ratio, or is square when there is no input.
 */
export function sizeForRatio(ratio: string | null | undefined, firstInput: Size | null): Size {
  const known = ratio ? RATIO_SIZES[ratio] : undefined;
  if (known) return known;
  return firstInput ? scaleToLongSide(firstInput) : DEFAULT_SIZE;
}

/** The nearest of the named ratios to a size (for "expand" on `Origin`). */
export function nearestRatio(size: Size): string {
  const actual = size.width / size.height;
  let best = '1:1';
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const [name, candidate] of Object.entries(RATIO_SIZES)) {
    const distance = Math.abs(Math.log(candidate.width / candidate.height / actual));
    if (distance < bestDistance) {
      best = name;
      bestDistance = distance;
    }
  }
  return best;
}
