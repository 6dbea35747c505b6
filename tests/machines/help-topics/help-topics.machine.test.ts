import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { helpTopicsMachine } from '@/machines/help-topics/help-topics.machine';
import {
  selectHasNextTopic,
  selectHasPreviousTopic,
  selectHelpIsOpen,
  selectHelpTopicIndex,
} from '@/machines/help-topics/help-topics.selectors';

const TOPIC_COUNT = 41;

function startHelp() {
  return createActor(helpTopicsMachine, { input: { topicCount: TOPIC_COUNT } }).start();
}

describe('help topics machine', () => {
  it('starts closed and opens on the topic of the button that opened it', () => {
    const help = startHelp();
    expect(selectHelpIsOpen(help.getSnapshot())).toBe(false);
    help.send({ type: 'help.open', topicIndex: 10 });
    expect(selectHelpIsOpen(help.getSnapshot())).toBe(true);
    expect(selectHelpTopicIndex(help.getSnapshot())).toBe(10);
  });

  it('moves to the next and the previous topic while open', () => {
    const help = startHelp();
    help.send({ type: 'help.open', topicIndex: 10 });
    help.send({ type: 'help.next' });
    help.send({ type: 'help.next' });
    expect(selectHelpTopicIndex(help.getSnapshot())).toBe(12);
    help.send({ type: 'help.previous' });
    expect(selectHelpTopicIndex(help.getSnapshot())).toBe(11);
  });

  it('stops at the first and the last topic (the buttons are disabled there)', () => {
    const help = startHelp();
    help.send({ type: 'help.open', topicIndex: 0 });
    expect(selectHasPreviousTopic(help.getSnapshot())).toBe(false);
    expect(selectHasNextTopic(help.getSnapshot())).toBe(true);
    help.send({ type: 'help.previous' });
    expect(selectHelpTopicIndex(help.getSnapshot())).toBe(0);

    help.send({ type: 'help.close' });
    help.send({ type: 'help.open', topicIndex: TOPIC_COUNT - 1 });
    expect(selectHasNextTopic(help.getSnapshot())).toBe(false);
    expect(selectHasPreviousTopic(help.getSnapshot())).toBe(true);
    help.send({ type: 'help.next' });
    expect(selectHelpTopicIndex(help.getSnapshot())).toBe(TOPIC_COUNT - 1);
  });

  it('ignores next and previous while closed', () => {
    const help = startHelp();
    help.send({ type: 'help.next' });
    expect(selectHelpIsOpen(help.getSnapshot())).toBe(false);
    expect(selectHelpTopicIndex(help.getSnapshot())).toBe(0);
    expect(selectHasNextTopic(help.getSnapshot())).toBe(false);
  });

  it('closes, and reopens on its own topic after moving away', () => {
    const help = startHelp();
    help.send({ type: 'help.toggle', topicIndex: 23 });
    help.send({ type: 'help.next' });
    help.send({ type: 'help.close' });
    expect(selectHelpIsOpen(help.getSnapshot())).toBe(false);
    help.send({ type: 'help.toggle', topicIndex: 23 });
    expect(selectHelpIsOpen(help.getSnapshot())).toBe(true);
    expect(selectHelpTopicIndex(help.getSnapshot())).toBe(23);
    help.send({ type: 'help.toggle', topicIndex: 23 });
    expect(selectHelpIsOpen(help.getSnapshot())).toBe(false);
  });

  it('keeps an out-of-range topic inside the list', () => {
    const help = startHelp();
    help.send({ type: 'help.open', topicIndex: 99 });
    expect(selectHelpTopicIndex(help.getSnapshot())).toBe(TOPIC_COUNT - 1);
    help.send({ type: 'help.close' });
    help.send({ type: 'help.open', topicIndex: -3 });
    expect(selectHelpTopicIndex(help.getSnapshot())).toBe(0);
  });
});
