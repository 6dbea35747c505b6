// Split point: only `lazy-menu.tsx` imports this module, with a dynamic import, so Mantine's Menu
// (Popover, floating-ui, focus trap, transitions) stays out of the initial bundle. Importing
// `@mantine/core` dynamically would not split it: the package is in the initial graph already.
export { Menu } from '@mantine/core';
