import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { useCallback, useEffect, useRef } from 'react';
import { modalsMounted, whenModalsReady } from '@/components/confirm/modals-state';

/** What one "are you sure?" dialog says; the confirm button is red, focus starts on Cancel. */
export interface ConfirmDialog {
  title: string;
  text: string;
  cancel: string;
  confirm: string;
  /** Sends the machine's event: the machine owns what happens next, the dialog only asks. */
  onConfirm: () => void;
}

/** Opens the dialog; its id is forgotten once it closes, if it is still the one `openId` holds. */
function openConfirm(dialog: ConfirmDialog, openId: { current: string | null }): string {
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
  return id;
}

/**
 * Opens a confirmation through `@mantine/modals` (its provider is the app's ModalsHost, asked for
 * when the screen mounts): the dialog role, its title as accessible name, the focus trap and
 * Escape come from Mantine's Modal. The dialog closes when the screen that opened it goes away, as
 * a Modal rendered inside that screen did; a question still waiting for the host is then dropped.
 */
export function useConfirm(): (dialog: ConfirmDialog) => void {
  const openId = useRef<string | null>(null);
  const mountedRef = useRef(false);
  useEffect(() => {
    mountedRef.current = true;
    void whenModalsReady();
    return () => {
      mountedRef.current = false;
      if (openId.current) modals.close(openId.current);
    };
  }, []);
  return useCallback((dialog: ConfirmDialog) => {
    const open = () => {
      if (mountedRef.current) openId.current = openConfirm(dialog, openId);
    };
    if (modalsMounted()) open();
    else void whenModalsReady().then(open);
  }, []);
}
