import { HelpButton } from '@/components/help/help-popover';

/** The "?" beside a tool's title or a setting: the help topic of SPEC §2.10 in the help popover. */
export function ToolHelpButton({ topicIndex }: { topicIndex: number }) {
  return <HelpButton topicIndex={topicIndex} />;
}
