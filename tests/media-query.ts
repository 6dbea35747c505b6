/**
 * A `window.matchMedia` for jsdom (which has none) that answers width queries against a viewport
 * width tests can set, so the shell really runs its mobile or desktop layout.
 */

const DESKTOP_WIDTH_PX = 1280;
const PX_PER_EM = 16;

let viewportWidthPx = DESKTOP_WIDTH_PX;

type ChangeListener = (event: MediaQueryListEvent) => void;

interface LiveQuery {
  list: MediaQueryList;
  listeners: Set<ChangeListener>;
  matches: boolean;
}
let liveQueries: LiveQuery[] = [];

const toPx = (value: string, unit: string): number => Number(value) * (unit === 'px' ? 1 : PX_PER_EM);

/** Evaluates `(min-width: …)` / `(max-width: …)` in px or em, joined by "and"; anything else is false. */
export function matchesMediaQuery(query: string, widthPx: number = viewportWidthPx): boolean {
  return query.split(',').some((alternative) =>
    alternative.split(/\band\b/).every((condition) => {
      const width = /\(\s*(min|max)-width\s*:\s*([\d.]+)(px|em|rem)\s*\)/.exec(condition);
      if (!width) return false;
      const [, bound, value = '0', unit = 'px'] = width;
      return bound === 'min' ? widthPx >= toPx(value, unit) : widthPx <= toPx(value, unit);
    }),
  );
}

/** Sets the width media queries see, and tells the queries already made about any change. */
export function setViewportWidth(widthPx: number): void {
  viewportWidthPx = widthPx;
  for (const live of liveQueries) {
    const matches = matchesMediaQuery(live.list.media);
    if (matches === live.matches) continue;
    live.matches = matches;
    const event = { matches, media: live.list.media } as MediaQueryListEvent;
    live.listeners.forEach((listener) => listener(event));
  }
}

/** A phone-sized viewport, below the 768 px mobile breakpoint. */
export const setMobileViewport = (): void => setViewportWidth(375);

/** Back to a desktop width, forgetting the queries of the last test. */
export function resetViewport(): void {
  viewportWidthPx = DESKTOP_WIDTH_PX;
  liveQueries = [];
}

function createMediaQueryList(media: string): MediaQueryList {
  const listeners = new Set<ChangeListener>();
  const live: LiveQuery = { list: undefined as unknown as MediaQueryList, listeners, matches: matchesMediaQuery(media) };
  live.list = {
    get matches() {
      return live.matches;
    },
    media,
    onchange: null,
    addListener: (listener: ChangeListener) => listeners.add(listener),
    removeListener: (listener: ChangeListener) => listeners.delete(listener),
    addEventListener: (_type: string, listener: ChangeListener) => listeners.add(listener),
    removeEventListener: (_type: string, listener: ChangeListener) => listeners.delete(listener),
    dispatchEvent: () => false,
  } as unknown as MediaQueryList;
  liveQueries.push(live);
  return live.list;
}

export function installMatchMedia(): void {
  Object.defineProperty(window, 'matchMedia', { writable: true, configurable: true, value: createMediaQueryList });
}
