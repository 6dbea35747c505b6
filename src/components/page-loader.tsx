import { Center, Loader } from '@mantine/core';

/** Shown while a page's code or data is on its way. */
export function PageLoader() {
  return (
    <Center py="xl">
      {/* A named status: aria-label alone is not allowed on the loader's plain <span> (axe aria-prohibited-attr). */}
      <Loader role="status" aria-label="Loading page" />
    </Center>
  );
}
