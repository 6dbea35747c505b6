import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { useCallback, useEffect, useRef } from 'react';

/** What one "are you sure?" dialog says; the confirm button is red, focus starts on Cancel. */
export interface ConfirmDialog {
  title: string;
  text: string;
  cancel: string;
  confirm: string;
  /** Sends the machine's event: the machine owns what happens next, the dialog only asks. */
  onConfirm: () => void;
}

/**
 * Opens a confirmation through `@mantine/modals` (the ModalsProvider in the app's providers):
 * the dialog role, its title as accessible name, the focus trap and Escape come from Mantine's
 * Modal. The dialog closes when the screen that opened it goes away, as a Modal rendered inside
 * that screen did.
 */
export function useConfirm(): (dialog: ConfirmDialog) => void {
  const openId = useRef<string | null>(null);
  useEffect(
    () => () => {
      if (openId.current) modals.close(openId.current);
    },
    [],
  );
  return useCallback((dialog: ConfirmDialog) => {
    const id = modals.openConfirmModal({
      title: dialog.title,
      centered: true,
      children: <Text size="sm">{dialog.text}</Text>,
      labels: { confirm: dialog.confirm, cancel: dialog.cancel },
      cancelProps: { 'data-autofocus': true },
      confirmProps: { color: 'red' },
      onConfirm: dialog.onConfirm,
      onClose: () => {
        if (openId.current === id) openId.current = null;
      },
    });
    openId.current = id;
  }, []);
}
