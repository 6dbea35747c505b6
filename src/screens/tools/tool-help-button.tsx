import { ActionIcon, Popover, Stack, Text } from '@mantine/core';
import { HELP_POPOVER } from '@/config/limits';
import { HELP_TOPICS } from '@/config/help-topics';
import { TOOL_TEXTS } from '@/config/job-texts';

/**
 * The topic's HTML description as plain text. Issue 8 renders it as HTML through DOMPurify; until
 * then nothing from it is ever put into the page as markup. DOMParser builds an inert document:
 * no script runs and nothing loads.
 */
export function helpText(html: string): string {
  const text = new DOMParser().parseFromString(html, 'text/html').body.textContent ?? '';
  return text.replace(/\s+/g, ' ').trim();
}

/** The "?" beside a tool's title: the help topic of SPEC §2.10 in a popover. */
export function ToolHelpButton({ topicIndex }: { topicIndex: number }) {
  const topic = HELP_TOPICS[topicIndex];
  if (!topic) return null;
  return (
    <Popover width={HELP_POPOVER.widthPx} position="bottom-start" withArrow shadow="md" trapFocus={false}>
      <Popover.Target>
        <ActionIcon variant="light" radius="xl" aria-label={TOOL_TEXTS.help(topic.title)}>
          ?
        </ActionIcon>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap="xs">
          <Text fw={700}>{topic.title}</Text>
          <Text size="sm">{helpText(topic.description)}</Text>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
