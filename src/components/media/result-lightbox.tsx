import { Anchor, Button, Group, Modal, Stack, Text, UnstyledButton } from '@mantine/core';
import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';
import { LIGHTBOX_TEXTS } from '@/config/lightbox-texts';
import { OnceOpened } from '@/components/once-opened';

/** One picture the lightbox can show: the full file, its SPEC §3 label and its description. */
export interface LightboxPicture {
  /** Stays the same when a refreshed list signs the file anew (see `lightboxPictureId`). */
  id: string;
  url: string;
  label: string;
  alt: string;
}

interface ResultLightboxProps {
  pictures: readonly LightboxPicture[];
  /** More actions on the shown picture (a results list's Upscale). */
  actions?: (picture: LightboxPicture) => ReactNode;
  /** The shown picture's place in `pictures`; null while closed. */
  index: number | null;
  onIndexChange: (index: number) => void;
  onClose: () => void;
}

/**
 * A picture result shown as large as the window allows (issue 17: results were about 320 px with
 * no way to see them larger), with Previous / Next (buttons and the arrow keys) through the
 * page's pictures and a download. A Mantine Modal: focus stays inside, Escape closes.
 */
export function ResultLightbox({ pictures, index, onIndexChange, onClose, actions }: ResultLightboxProps) {
  const picture = index === null ? undefined : pictures[index];
  const total = pictures.length;
  const hasPrevious = index !== null && index > 0;
  const hasNext = index !== null && index < total - 1;
  const previous = useCallback(() => {
    if (index !== null && index > 0) onIndexChange(index - 1);
  }, [index, onIndexChange]);
  const next = useCallback(() => {
    if (index !== null && index < total - 1) onIndexChange(index + 1);
  }, [index, total, onIndexChange]);

  useEffect(() => {
    if (!picture) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'ArrowLeft') previous();
      else if (event.key === 'ArrowRight') next();
      else return;
      event.preventDefault();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [picture, previous, next]);

  return (
    <OnceOpened opened={picture !== undefined}>
      <Modal
        opened={picture !== undefined}
        onClose={onClose}
        title={picture ? LIGHTBOX_TEXTS.title(picture.label) : ''}
        size="auto"
        centered
        styles={{ title: { fontFamily: 'var(--mantine-font-family-monospace)', overflowWrap: 'anywhere' } }}
      >
        {picture && index !== null && (
          <Stack gap="sm">
            <img
              src={picture.url}
              alt={picture.alt}
              style={{ display: 'block', maxWidth: 'min(100%, 1600px)', maxHeight: '75vh', margin: '0 auto', objectFit: 'contain' }}
            />
            <Group justify="space-between" gap="xs">
              <Button variant="default" onClick={previous} disabled={!hasPrevious}>
                {LIGHTBOX_TEXTS.previous}
              </Button>
              <Text size="sm" c="dimmed" aria-live="polite">
                {LIGHTBOX_TEXTS.position(index, total)}
              </Text>
              <Button variant="default" onClick={next} disabled={!hasNext}>
                {LIGHTBOX_TEXTS.next}
              </Button>
            </Group>
            <Group justify="space-between" gap="xs">
              <Text size="xs" c="dimmed">
                {LIGHTBOX_TEXTS.keys}
              </Text>
              <Group gap="sm">
                {actions?.(picture)}
                <Anchor href={picture.url} target="_blank" rel="noreferrer" size="sm">
                  {LIGHTBOX_TEXTS.openOriginal}
                </Anchor>
                <Button component="a" href={picture.url} download size="xs" aria-label={LIGHTBOX_TEXTS.downloadLabel(picture.label)}>
                  {LIGHTBOX_TEXTS.download}
                </Button>
              </Group>
            </Group>
          </Stack>
        )}
      </Modal>
    </OnceOpened>
  );
}

/** A picture's id in the lightbox: its media and its label (unique within one media). */
export const lightboxPictureId = (mediaId: string, label: string): string => `${mediaId}\n${label}`;

/** Opens the lightbox at the picture with this id; null outside a `ResultLightboxProvider`. */
const LightboxContext = createContext<((id: string) => void) | null>(null);

export const useResultLightbox = (): ((id: string) => void) | null => useContext(LightboxContext);

/** Holds one lightbox for the pictures of a results list; its result cards open it at their picture. */
export function ResultLightboxProvider({
  pictures,
  actions,
  children,
}: {
  pictures: readonly LightboxPicture[];
  actions?: (picture: LightboxPicture) => ReactNode;
  children: ReactNode;
}) {
  // The shown picture is kept by id, so a list refreshed while it is open (a job finished, links
  // signed anew) keeps showing it.
  const [shownId, setShownId] = useState<string | null>(null);
  const found = shownId === null ? -1 : pictures.findIndex((picture) => picture.id === shownId);
  const index = found === -1 ? null : found;
  const open = useCallback((id: string) => setShownId(id), []);
  return (
    <LightboxContext.Provider value={open}>
      {children}
      <ResultLightbox
        pictures={pictures}
        actions={actions}
        index={index}
        onIndexChange={(next) => setShownId(pictures[next]?.id ?? null)}
        onClose={() => setShownId(null)}
      />
    </LightboxContext.Provider>
  );
}

interface LightboxTriggerProps {
  /** The picture's `lightboxPictureId`. */
  id: string;
  label: string;
  /** Where the picture opens outside a results list with a lightbox (a new tab). */
  href: string;
  children: ReactNode;
}

/** Wraps a result picture: in a results list it opens the lightbox there, elsewhere the file in a new tab. */
export function LightboxTrigger({ id, label, href, children }: LightboxTriggerProps) {
  const open = useResultLightbox();
  if (!open) {
    return (
      <a href={href} target="_blank" rel="noreferrer">
        {children}
      </a>
    );
  }
  return (
    <UnstyledButton onClick={() => open(id)} aria-label={LIGHTBOX_TEXTS.open(label)} style={{ display: 'block', width: '100%', cursor: 'zoom-in' }}>
      {children}
    </UnstyledButton>
  );
}
