import { Anchor, Group, Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';

export interface ToolPageHeaderProps {
  title: string;
  groupLabel: string;
  groupPath: string;
  /** Beside the title (the tool's help button). */
  aside?: ReactNode;
  /** Under the title (e.g. a link to a related tool). */
  children?: ReactNode;
}

/** The top of a tool or upload page: a link back to its menu group, then the page title. */
export function ToolPageHeader({ title, groupLabel, groupPath, aside, children }: ToolPageHeaderProps) {
  return (
    <Stack gap={4}>
      <Anchor component={Link} to={groupPath} size="sm">
        {groupLabel}
      </Anchor>
      <Group gap="sm" align="center">
        <Title order={1}>{title}</Title>
        {aside}
      </Group>
      {children}
    </Stack>
  );
}
