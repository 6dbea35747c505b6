import { createTheme, em } from '@mantine/core';
import { BREAKPOINTS } from '@/config/limits';

/** Mantine's breakpoints are in em (16 px each), so they follow the reader's font size. */
const PX_PER_EM = 16;

/** Kinora's Mantine theme (one module, STYLE.md). */
export const theme = createTheme({
  primaryColor: 'violet',
  defaultRadius: 'md',
  fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  breakpoints: {
    xs: '36em',
    sm: em(BREAKPOINTS.mobile), // 768 px: below is mobile (SPEC §2.11)
    md: em(BREAKPOINTS.tablet), // 1024 px: below is tablet
    lg: '75em',
    xl: '88em',
  },
});

/**
 * Matches below the `sm` breakpoint, where the menu folds behind the burger. It stops 0.01em
 * short of `sm`, as Mantine's own `hiddenFrom="sm"` starts at `sm`, so no width matches both.
 */
export const MOBILE_MEDIA_QUERY = `(max-width: ${BREAKPOINTS.mobile / PX_PER_EM - 0.01}em)`;
