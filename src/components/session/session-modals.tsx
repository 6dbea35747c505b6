import { Button, Group, List, Modal, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { MESSAGES } from '@/config/messages';
import type { SessionModal } from '@/machines/session/session.machine';

interface ModalText {
  title: string;
  body: ReactNode;
}

function textOf(modal: SessionModal): ModalText {
  switch (modal.kind) {
    case 'guestWelcome':
      return {
        title: MESSAGES.guestWelcome.title,
        body: (
          <List spacing="xs">
            {MESSAGES.guestWelcome.points.map((point) => (
              <List.Item key={point}>{point}</List.Item>
            ))}
          </List>
        ),
      };
    case 'coupon':
      return { title: MESSAGES.couponSuccess.title, body: <Text>{MESSAGES.couponSuccess.message(modal.credits)}</Text> };
    case 'redirectRefused':
      return {
        title: 'Sign-in not sent',
        body: (
          <Stack gap="xs">
            <Text>
              Kinora did not send your sign-in to{' '}
              <Text span fw={600} style={{ wordBreak: 'break-all' }}>
                {modal.redirectUri}
              </Text>{' '}
              because that address is not one of its trusted partner apps.
            </Text>
            <Text>Nothing was sent there, and you are still signed in here.</Text>
          </Stack>
        ),
      };
  }
}

/**
 * The session's modal on top (SPEC §2.9 items 2 and 3, and the refused redirect of §4): one
 * Confirm button; Escape or the close button confirm too, since each only acknowledges.
 */
export function SessionModalDialog({ modal, onConfirm }: { modal: SessionModal | null; onConfirm: () => void }) {
  const text = modal ? textOf(modal) : null;
  return (
    <Modal opened={text !== null} onClose={onConfirm} title={text?.title} centered>
      {text && (
        <Stack gap="md">
          {text.body}
          <Group justify="flex-end">
            <Button onClick={onConfirm} data-autofocus>
              Confirm
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
