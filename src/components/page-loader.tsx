import { Center, Loader } from '@mantine/core';

/** Shown while a page's code or data is on its way. */
export function PageLoader() {
  return (
    <Center py="xl">
      <Loader aria-label="Loading page" />
    </Center>
  );
}
