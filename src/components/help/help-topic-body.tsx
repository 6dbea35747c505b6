import { Box, Stack } from '@mantine/core';
import { KEEP_ESCAPE } from '@/components/help/keep-escape';
import { SafeHtml } from '@/components/help/safe-html';
import { HELP_TEXTS } from '@/config/help-texts';
import type { TopicTutorial } from '@/config/help-topics';

function TutorialPlayer({ tutorial, title }: { tutorial: TopicTutorial; title: string }) {
  if (tutorial.kind === 'embed') {
    return (
      <Box
        component="iframe"
        src={tutorial.src}
        title={HELP_TEXTS.video(title)}
        allow="encrypted-media; picture-in-picture; fullscreen"
        referrerPolicy="strict-origin-when-cross-origin"
        style={{ border: 0, width: '100%', aspectRatio: '16 / 9', display: 'block' }}
      />
    );
  }
  return (
    <video
      key={tutorial.src}
      src={tutorial.src}
      controls
      muted
      playsInline
      preload="metadata"
      aria-label={HELP_TEXTS.video(title)}
      data-testid="help-tutorial-video"
      {...KEEP_ESCAPE}
      style={{ width: '100%', maxHeight: 220, display: 'block', background: 'black', borderRadius: 4 }}
    />
  );
}

/**
 * The part of a help topic that needs the sanitiser and a player: its tutorial and its HTML
 * description. Its own chunk, loaded at the first open (help-popover.tsx).
 */
export default function HelpTopicBody({ tutorial, title, description }: { tutorial: TopicTutorial | null; title: string; description: string }) {
  return (
    <Stack gap="xs" pb="xs" data-testid="help-topic-body">
      {tutorial && <TutorialPlayer tutorial={tutorial} title={title} />}
      <SafeHtml html={description} fz="sm" />
    </Stack>
  );
}
