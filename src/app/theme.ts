import { createTheme } from '@mantine/core';

/** Kinora's Mantine theme (one module, STYLE.md). */
export const theme = createTheme({
  primaryColor: 'violet',
  defaultRadius: 'md',
  fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  breakpoints: {
    xs: '36em',
    sm: '48em', // 768 px: below is mobile (SPEC §2.11)
    md: '64em', // 1024 px: below is tablet
    lg: '75em',
    xl: '88em',
  },
});
