import { Anchor, Box, Button, Group, Input, Progress, Stack, Text } from '@mantine/core';
import { shallowEqual, useActorRef, useSelector } from '@xstate/react';
import { useEffect, useId, useRef, useState, type DragEvent, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { AssetPicker } from '@/components/assets/asset-picker';
import { SessionActorContext } from '@/components/session/session-context';
import { ASSETS_TEXTS } from '@/config/assets-texts';
import type { MediaKind } from '@/config/enums';
import { TOOL_TEXTS } from '@/config/job-texts';
import { UPLOAD_RULES } from '@/config/limits';
import { acceptedExtensions } from '@/lib/upload-validation';
import { selectIsSignedIn } from '@/machines/session/session.selectors';
import { uploadMachine } from '@/machines/upload/upload.machine';
import { selectUploadView, type Media as UploadedMedia } from '@/machines/upload/upload.selectors';
import { inspect } from '@/lib/inspection/hub';

export type { Media as UploadedMedia } from '@/machines/upload/upload.selectors';

/** The `accept` attribute of the file picker: the kind's MIME types and extensions (SPEC §5). */
export const acceptAttribute = (kind: MediaKind): string =>
  [...Object.keys(UPLOAD_RULES[kind].accept), ...acceptedExtensions(kind)].join(',');

const KIND_WORD: Readonly<Record<MediaKind, string>> = { image: 'picture', video: 'video', audio: 'audio file' };

interface UploadFieldProps {
  kind: MediaKind;
  label: string;
  required?: boolean;
  /** The form's message for this input (e.g. "No upload file"). */
  error?: string;
  description?: ReactNode;
  /** Called with the uploaded file's URL, and with null when it is removed. */
  onChange: (url: string | null) => void;
  /** Called once per finished upload, e.g. to refresh a list of uploads. */
  onUploaded?: (media: UploadedMedia) => void;
  /** Where the person's earlier uploads are listed (SPEC §2.5 upload pages). */
  uploadPagePath?: string;
  /**
   * One of the person's results to start with (a picture brought by "Use in a tool"): the field
   * holds it, as if chosen from an asset, until the person chooses another file.
   */
  existing?: { media: UploadedMedia; itemIndex: number; name: string } | null;
}

/**
 * One file input with its own upload actor: drag and drop or the file picker, the SPEC §5 check
 * before a byte is sent (its message shown here), progress with cancel, then the thumbnail.
 */
export function UploadField({
  kind,
  label,
  required,
  error,
  description,
  onChange,
  onUploaded,
  uploadPagePath,
  existing = null,
}: UploadFieldProps) {
  const upload = useActorRef(uploadMachine, { input: { kind }, inspect });
  const view = useSelector(upload, selectUploadView, shallowEqual);
  const inputRef = useRef<HTMLInputElement>(null);
  const inputId = useId();
  const errorId = `${inputId}-error`;
  const descriptionId = `${inputId}-description`;
  const uploadErrorId = `${inputId}-upload-error`;
  const [dragging, setDragging] = useState(false);
  // "Choose from assets" (issue 7): a signed-in person's earlier results, without uploading again.
  const signedIn = SessionActorContext.useSelector(selectIsSignedIn);
  const [picking, setPicking] = useState(false);

  // The latest callbacks, so the effects below run only when the upload itself changes.
  const onChangeRef = useRef(onChange);
  const onUploadedRef = useRef(onUploaded);
  useEffect(() => {
    onChangeRef.current = onChange;
    onUploadedRef.current = onUploaded;
  });

  useEffect(() => {
    onChangeRef.current(view.url ?? null);
  }, [view.url]);

  useEffect(() => {
    if (view.media) onUploadedRef.current?.(view.media);
  }, [view.media]);

  useEffect(() => {
    if (!existing) return;
    upload.send({ type: 'upload.useExisting', media: existing.media, itemIndex: existing.itemIndex, name: existing.name });
  }, [existing, upload]);

  const select = (file: File | null | undefined) => {
    if (file) upload.send({ type: 'upload.select', file });
  };

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    select(event.dataTransfer.files[0]);
  };

  const percent = Math.round((view.progress ?? 0) * 100);
  const uploadError = (view.phase === 'rejected' || view.phase === 'failed') && view.error ? view.error : null;
  // The picker button is what a keyboard or screen reader reaches: it carries the field's
  // messages, its error state and whether it is required.
  const describedBy =
    [error ? errorId : null, uploadError ? uploadErrorId : null, description ? descriptionId : null]
      .filter((id): id is string => id !== null)
      .join(' ') || undefined;

  return (
    <Input.Wrapper
      label={label}
      required={required}
      error={error}
      description={description}
      labelProps={{ htmlFor: inputId }}
      errorProps={{ id: errorId }}
      descriptionProps={{ id: descriptionId }}
    >
      <Box
        mt={4}
        p="md"
        bd={`1px dashed ${dragging ? 'var(--mantine-color-blue-6)' : 'var(--mantine-color-gray-5)'}`}
        style={{ borderRadius: 'var(--mantine-radius-md)' }}
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
      >
        <input
          ref={inputRef}
          id={inputId}
          type="file"
          accept={acceptAttribute(kind)}
          required={required}
          hidden
          onChange={(event) => {
            select(event.currentTarget.files?.[0]);
            // The same file can be chosen again after a removal or a refusal.
            event.currentTarget.value = '';
          }}
        />
        <Stack gap="xs">
          {view.phase === 'done' && view.url ? (
            <Group gap="sm" align="center" wrap="nowrap">
              {kind === 'image' ? (
                <img
                  src={view.thumbnailUrl ?? view.url}
                  alt={`${label}: ${view.fileName ?? ''}`}
                  style={{ maxWidth: 96, maxHeight: 96, objectFit: 'contain', borderRadius: 4 }}
                />
              ) : kind === 'audio' ? (
                <audio controls src={view.url} aria-label={`${label}: ${view.fileName ?? ''}`} />
              ) : (
                <video
                  controls
                  preload="metadata"
                  src={view.url}
                  poster={view.thumbnailUrl ?? undefined}
                  aria-label={`${label}: ${view.fileName ?? ''}`}
                  style={{ maxWidth: 160, maxHeight: 96, borderRadius: 4 }}
                />
              )}
              <Text size="sm" truncate="end">
                {view.fileName}
              </Text>
              <Button variant="subtle" size="xs" onClick={() => upload.send({ type: 'upload.clear' })}>
                {TOOL_TEXTS.upload.clear}
              </Button>
            </Group>
          ) : view.phase === 'uploading' ? (
            <Stack gap={4}>
              <Text size="sm">
                {view.fileName} — {TOOL_TEXTS.upload.uploading(percent)}
              </Text>
              <Progress value={percent} aria-label={`${label} upload`} />
              <Group>
                <Button variant="default" size="xs" onClick={() => upload.send({ type: 'upload.cancel' })}>
                  {TOOL_TEXTS.upload.cancel}
                </Button>
              </Group>
            </Stack>
          ) : (
            <Group gap="sm" align="center">
              <Text size="sm" c="dimmed">
                {TOOL_TEXTS.upload.drop(KIND_WORD[kind])}
              </Text>
              <Button
                variant="light"
                size="xs"
                aria-label={TOOL_TEXTS.upload.chooseLabel(label, Boolean(required))}
                aria-describedby={describedBy}
                aria-invalid={Boolean(error || uploadError) || undefined}
                onClick={() => inputRef.current?.click()}
              >
                {TOOL_TEXTS.upload.choose}
              </Button>
              {signedIn && (
                <Button
                  variant="subtle"
                  size="xs"
                  aria-label={ASSETS_TEXTS.picker.openLabel(label)}
                  onClick={() => setPicking(true)}
                >
                  {ASSETS_TEXTS.picker.open}
                </Button>
              )}
            </Group>
          )}
          {uploadError && (
            <Text size="sm" c="red" role="alert" id={uploadErrorId}>
              {uploadError}
            </Text>
          )}
          {view.phase === 'failed' && (
            <Group>
              <Button variant="default" size="xs" onClick={() => upload.send({ type: 'upload.retry' })}>
                {TOOL_TEXTS.upload.retry}
              </Button>
            </Group>
          )}
          {uploadPagePath && (
            <Anchor component={Link} to={uploadPagePath} size="xs">
              {TOOL_TEXTS.upload.openUploadPage(kind)}
            </Anchor>
          )}
        </Stack>
      </Box>
      {signedIn && (
        <AssetPicker
          opened={picking}
          kind={kind}
          onClose={() => setPicking(false)}
          onPick={(result) => {
            setPicking(false);
            upload.send({ type: 'upload.useExisting', media: result.media, itemIndex: result.itemIndex, name: result.label });
          }}
        />
      )}
    </Input.Wrapper>
  );
}
