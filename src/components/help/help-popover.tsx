import { ActionIcon, Box, CloseButton, Group, Loader, Popover, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useActorRef, useSelector } from '@xstate/react';
import { lazy, Suspense, useId, type ReactNode } from 'react';
import { KEEP_ESCAPE } from '@/components/help/keep-escape';
import { HELP_TEXTS } from '@/config/help-texts';
import { HELP_TOPICS, topicTutorial, tutorialHost, type HelpDevice, type HelpTopic } from '@/config/help-topics';
import { BREAKPOINTS, HELP_POPOVER } from '@/config/limits';
import { inspect } from '@/lib/inspection/hub';
import { helpTopicsMachine } from '@/machines/help-topics/help-topics.machine';
import {
  selectHasNextTopic,
  selectHasPreviousTopic,
  selectHelpIsOpen,
  selectHelpTopicIndex,
} from '@/machines/help-topics/help-topics.selectors';

/**
 * A topic's tutorial and description (issue 22 item 6): the sanitiser (DOMPurify) and the players
 * load at the first open of any help popover, or when the pointer or focus reaches a "?" button
 * (preloadHelpBody), not with every tool page. The title, the close button and previous / next
 * are drawn at once, so focus has its place the moment the popover opens.
 */
const loadHelpBody = () => import('@/components/help/help-topic-body');
const HelpTopicBody = lazy(loadHelpBody);
const preloadHelpBody = (): void => {
  void loadHelpBody().catch(() => undefined);
};

/** SPEC §2.11: below 768 px wide is mobile. */
export const HELP_MOBILE_QUERY = `(max-width: ${BREAKPOINTS.mobile - 0.02}px)`;

/** The popover's box (SPEC §2.9 item 4): 500 px wide but never wider than the viewport less its margins. */
export function helpPopoverSize(hasTutorial: boolean): { width: number; maxWidth: string; height: number } {
  return {
    width: HELP_POPOVER.widthPx,
    maxWidth: `calc(100vw - ${2 * HELP_POPOVER.viewportMarginPx}px)`,
    height: hasTutorial ? HELP_POPOVER.heightWithVideoPx : HELP_POPOVER.heightWithoutVideoPx,
  };
}

interface HelpTopicViewProps {
  topic: HelpTopic;
  topicCount: number;
  device: HelpDevice;
  titleId: string;
  hasPrevious: boolean;
  hasNext: boolean;
  onPrevious: () => void;
  onNext: () => void;
  onClose: () => void;
}

/** One topic: title and close, the tutorial, the description (scrolls), previous / next. */
export function HelpTopicView({ topic, topicCount, device, titleId, hasPrevious, hasNext, onPrevious, onNext, onClose }: HelpTopicViewProps) {
  const tutorial = topicTutorial(topic, device, tutorialHost());
  return (
    <Stack gap={0} h="100%" data-device={device}>
      <Group justify="space-between" wrap="nowrap" gap="xs" px="md" pt="sm" pb="xs">
        <Text component="h2" fw={700} size="md" m={0} id={titleId}>
          {topic.title}
        </Text>
        <CloseButton aria-label={HELP_TEXTS.close} onClick={onClose} data-autofocus {...KEEP_ESCAPE} />
      </Group>
      <Box
        role="region"
        aria-labelledby={titleId}
        tabIndex={0}
        px="md"
        style={{ flex: 1, minHeight: 0, overflowY: 'auto' }}
        data-testid="help-popover-body"
        {...KEEP_ESCAPE}
      >
        <Suspense
          fallback={
            <Group gap="xs" my="sm" role="status">
              <Loader size="sm" />
              <Text size="sm" c="dimmed">
                {HELP_TEXTS.loading}
              </Text>
            </Group>
          }
        >
          <HelpTopicBody tutorial={tutorial} title={topic.title} description={topic.description} />
        </Suspense>
      </Box>
      <Group justify="space-between" wrap="nowrap" px="md" py="xs">
        <ActionIcon variant="default" size="lg" aria-label={HELP_TEXTS.previous} disabled={!hasPrevious} onClick={onPrevious} {...KEEP_ESCAPE}>
          <span aria-hidden="true">‹</span>
        </ActionIcon>
        <Text size="xs" c="dimmed" aria-live="polite">
          {HELP_TEXTS.position(topic.index, topicCount)}
        </Text>
        <ActionIcon variant="default" size="lg" aria-label={HELP_TEXTS.next} disabled={!hasNext} onClick={onNext} {...KEEP_ESCAPE}>
          <span aria-hidden="true">›</span>
        </ActionIcon>
      </Group>
    </Stack>
  );
}

export interface HelpButtonProps {
  /** The SPEC §2.10 topic this button opens. */
  topicIndex: number;
}

/**
 * A "?" button that opens the contextual help popover (SPEC §2.9 item 4) on its topic. Focus moves
 * into the popover; Escape, the X or a click outside closes it and focus returns to the button.
 */
export function HelpButton({ topicIndex }: HelpButtonProps) {
  const help = useActorRef(helpTopicsMachine, { input: { topicCount: HELP_TOPICS.length }, inspect });
  const opened = useSelector(help, selectHelpIsOpen);
  const shownIndex = useSelector(help, selectHelpTopicIndex);
  const hasNext = useSelector(help, selectHasNextTopic);
  const hasPrevious = useSelector(help, selectHasPreviousTopic);
  const isMobile = useMediaQuery(HELP_MOBILE_QUERY, false, { getInitialValueInEffect: false });
  const titleId = useId();

  const ownTopic = HELP_TOPICS[topicIndex];
  const shown = HELP_TOPICS[shownIndex];
  if (!ownTopic || !shown) return null;
  const device: HelpDevice = isMobile ? 'mobile' : 'desktop';
  const size = helpPopoverSize(topicTutorial(shown, device, tutorialHost()) !== null);
  const close = () => help.send({ type: 'help.close' });

  return (
    <Popover
      opened={opened}
      onChange={(next) => {
        if (!next) close();
      }}
      position="bottom-start"
      withArrow
      shadow="md"
      trapFocus
      returnFocus
      closeOnEscape
      middlewares={{
        flip: { padding: HELP_POPOVER.viewportMarginPx },
        // Where it fits neither below nor above the button (a 400 px topic on a phone, its button
        // half-way down a long form), it slides up over the form instead of running off the screen;
        // no limiter, which would keep it attached to the button and so partly off-screen.
        shift: { padding: HELP_POPOVER.viewportMarginPx, crossAxis: true, limiter: undefined },
      }}
    >
      <Popover.Target>
        <ActionIcon
          variant="light"
          radius="xl"
          aria-label={HELP_TEXTS.button(ownTopic.title)}
          onClick={() => help.send({ type: 'help.toggle', topicIndex })}
          onPointerEnter={preloadHelpBody}
          onFocus={preloadHelpBody}
        >
          ?
        </ActionIcon>
      </Popover.Target>
      <Popover.Dropdown
        p={0}
        aria-labelledby={titleId}
        data-testid="help-popover"
        {...KEEP_ESCAPE}
        style={{ ...size, overflow: 'hidden' }}
      >
        <HelpTopicView
          topic={shown}
          topicCount={HELP_TOPICS.length}
          device={device}
          titleId={titleId}
          hasPrevious={hasPrevious}
          hasNext={hasNext}
          onPrevious={() => help.send({ type: 'help.previous' })}
          onNext={() => help.send({ type: 'help.next' })}
          onClose={close}
        />
      </Popover.Dropdown>
    </Popover>
  );
}

/** A setting of a tool form with its help button beside it; `grow` lets the setting take the row. */
export function WithHelp({ topicIndex, grow = true, children }: { topicIndex: number; grow?: boolean; children: ReactNode }) {
  return (
    <Group gap={6} align="flex-end" wrap="nowrap">
      <Box style={grow ? { flex: 1, minWidth: 0 } : undefined}>{children}</Box>
      <Box pb={4}>
        <HelpButton topicIndex={topicIndex} />
      </Box>
    </Group>
  );
}
