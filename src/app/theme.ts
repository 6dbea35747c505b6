import { createTheme, DEFAULT_THEME, em, type MantineColorsTuple } from '@mantine/core';
import { A11Y_TEXTS } from '@/config/a11y-texts';
import { BREAKPOINTS } from '@/config/limits';

/** Mantine's breakpoints are in em (16 px each), so they follow the reader's font size. */
const PX_PER_EM = 16;

/**
 * WCAG AA colours (4.5:1 for text), checked by axe in tests/e2e/a11y.pw.ts. In the light scheme Mantine
 * writes text in shade 6 (`c="red"`, `c="dimmed"` = gray.6, input errors and descriptions, filled
 * buttons under white text) and the light variants (badges, alerts, subtle buttons) in shade 9 on
 * shade 1 (shade 2 on hover). Mantine's own shades fail there for most palettes, so these replace
 * them: shade 6 darkened until it passes on gray.1 (and so on white and gray.0), shades 7–8 kept
 * darker than 6 (hover), shade 9 darkened until it passes on shade 2. Only the changed shades are
 * listed (computed once, in HLS lightness steps of 1 %).
 */
const ACCESSIBLE_SHADES: Record<string, Partial<Record<number, string>>> = {
  gray: { 6: '#686e78' },
  red: { 6: '#de0505', 7: '#ca0f0f', 8: '#b71919', 9: '#b12424' },
  pink: { 6: '#d3205e', 7: '#bc255a', 8: '#ae2052' },
  grape: { 6: '#ae2bd2', 7: '#9e33b6', 8: '#9032a5' },
  violet: { 6: '#754bf2', 7: '#683ee6', 8: '#5e35d6', 9: '#5b3abd' },
  indigo: { 6: '#385ef5', 7: '#2e53eb', 8: '#2b4bd7', 9: '#3349bb' },
  blue: { 6: '#1571c0', 7: '#1466ae', 8: '#125c9f', 9: '#155b9f' },
  cyan: { 6: '#0e7a83', 7: '#0d707b', 8: '#0c6571', 9: '#0b6271' },
  teal: { 6: '#0e7c5f', 7: '#0c6f54', 8: '#09654b', 9: '#086148' },
  green: { 6: '#2e7d35', 7: '#27722d', 8: '#216628', 9: '#21622a' },
  lime: { 6: '#4f7b0d', 7: '#476d0c', 8: '#3c620b', 9: '#3b5d0a' },
  yellow: { 6: '#916705', 7: '#875d00', 8: '#874d00', 9: '#8c4500' },
  orange: { 6: '#b05402', 7: '#a74707', 8: '#9d3b0c', 9: '#a2340f' },
};

const accessibleColors = Object.fromEntries(
  Object.entries(ACCESSIBLE_SHADES).map(([name, shades]) => [
    name,
    DEFAULT_THEME.colors[name]?.map((shade, index) => shades[index] ?? shade) as unknown as MantineColorsTuple,
  ]),
);

/** Kinora's Mantine theme (one module, STYLE.md). */
export const theme = createTheme({
  primaryColor: 'violet',
  // Modals, menus and popovers open without their transition for a person who asks for less motion (reduced-motion.css stops the looping animations).
  respectReducedMotion: true,
  defaultRadius: 'md',
  colors: accessibleColors,
  // Plain objects, not `Modal.extend(...)`: importing the components here would put them in the first page's JS.
  components: {
    // Icon-only close buttons need a name (axe button-name).
    Modal: { defaultProps: { closeButtonProps: { 'aria-label': A11Y_TEXTS.closeDialog } } },
    Drawer: { defaultProps: { closeButtonProps: { 'aria-label': A11Y_TEXTS.closeDialog } } },
    Notification: { defaultProps: { closeButtonProps: { 'aria-label': A11Y_TEXTS.closeNotification } } },
    // A link must not be told from the text around it by colour alone (axe link-in-text-block).
    Anchor: { defaultProps: { underline: 'always' } },
    // The placeholder Mantine focuses first is a role="presentation" child of role="menu" (axe aria-required-children).
    Menu: { defaultProps: { withInitialFocusPlaceholder: false } },
    // Issue 19. Mantine's Combobox keeps every closed list drawn (hidden), so a tool page drew each
    // Select's options, scroll area and floating position while loading (a third of its last long
    // task): the list is drawn when it opens instead. Opened, it scrolls natively: Mantine's
    // ScrollArea measured itself on opening, a share of the time from the click to the list's paint.
    Select: {
      defaultProps: { comboboxProps: { keepMounted: false }, withScrollArea: false },
      styles: { dropdown: { maxHeight: 240, overflowY: 'auto' } },
    },
    // A 30-character handle or a long title has no space to wrap at: break it rather than push the
    // page past a phone's edge (issue 17).
    Title: { styles: { root: { overflowWrap: 'anywhere' } } },
  },
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
