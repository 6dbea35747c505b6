import { Title } from '@mantine/core';

/** The QA machine inspector (issue 8). Groundwork: the route exists; the screen is being built. */
export function InspectorScreen() {
  return <Title order={1}>Machine inspector</Title>;
}
