import { Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { AuthFeedback } from '@/screens/authentication/auth-feedback';

/** The frame of every step of /authentication: its heading, an intro, the feedback and the form. */
export function AuthPanel({ title, intro, children }: { title: string; intro?: ReactNode; children: ReactNode }) {
  return (
    <Paper withBorder p="lg" radius="md">
      <Stack gap="md">
        <Title order={1}>{title}</Title>
        {intro && <Text c="dimmed">{intro}</Text>}
        <AuthFeedback />
        {children}
      </Stack>
    </Paper>
  );
}
