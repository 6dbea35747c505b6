import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, CopyButton, Group, Modal, Radio, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { Controller, useForm } from 'react-hook-form';
import type { ActorRefFrom } from 'xstate';
import { z } from 'zod';
import { HelpButton, WithHelp } from '@/components/help/help-popover';
import { SETTING_HELP_TOPICS } from '@/config/help-topics';
import { ROUTES } from '@/config/routes';
import { SHARE_DESCRIPTION_MAX, SHARE_TITLE_MAX, VISIBILITIES, VISIBILITY_OPTIONS } from '@/config/sharing';
import { SHARING_TEXTS } from '@/config/sharing-texts';
import type { shareMachine } from '@/machines/content/share.machine';
import { selectShareError, selectSharedMediaId, selectShareStatus, selectShareValues } from '@/machines/content/share.selectors';
import { OnceOpened } from '@/components/once-opened';

const TEXTS = SHARING_TEXTS.share;

/** The form's rules: shareRequestSchema's limits, with messages for a person. */
const shareFormSchema = z.object({
  title: z.string().trim().min(1, TEXTS.titleRequired).max(SHARE_TITLE_MAX, TEXTS.titleTooLong(SHARE_TITLE_MAX)),
  description: z.string().trim().max(SHARE_DESCRIPTION_MAX, TEXTS.descriptionTooLong(SHARE_DESCRIPTION_MAX)),
  visibility: z.enum(VISIBILITIES),
});
type ShareFormValues = z.infer<typeof shareFormSchema>;

/** The page that shows a shared result, as a full address to paste anywhere. */
const sharedUrl = (mediaId: string): string => new URL(ROUTES.shared(mediaId), window.location.origin).href;

type ShareActor = ActorRefFrom<typeof shareMachine>;

function ShareForm({ share, fallbackTitle, onCancel }: { share: ShareActor; fallbackTitle: string; onCancel: () => void }) {
  const current = useSelector(share, selectShareValues);
  const status = useSelector(share, selectShareStatus);
  const error = useSelector(share, selectShareError);
  const saving = status === 'saving';
  const { control, register, handleSubmit, watch, formState } = useForm<ShareFormValues>({
    resolver: zodResolver(shareFormSchema),
    defaultValues: {
      title: current.title || fallbackTitle.slice(0, SHARE_TITLE_MAX),
      description: current.description,
      // Opening the form is asking to share: a private result starts as public.
      visibility: current.visibility === 'private' ? 'public' : current.visibility,
    },
  });
  const title = watch('title');
  const description = watch('description');
  const submit = handleSubmit((values) =>
    share.send({ type: 'share.submit', values: { title: values.title.trim(), description: values.description.trim(), visibility: values.visibility } }),
  );

  return (
    <form
      noValidate
      aria-label={TEXTS.modalTitle}
      onSubmit={(event) => {
        event.preventDefault();
        if (!saving) void submit(event);
      }}
    >
      <Stack gap="md">
        {status === 'failed' && error && (
          <Alert color="red" title={TEXTS.failedTitle} role="alert">
            {error}
          </Alert>
        )}
        <WithHelp topicIndex={SETTING_HELP_TOPICS.share}>
          <TextInput
            label={TEXTS.title}
            required
            error={formState.errors.title?.message}
            description={TEXTS.counter(title.length, SHARE_TITLE_MAX)}
            {...register('title')}
          />
        </WithHelp>
        <Textarea
          label={TEXTS.description}
          rows={4}
          error={formState.errors.description?.message}
          description={TEXTS.counter(description.length, SHARE_DESCRIPTION_MAX)}
          {...register('description')}
        />
        <Controller
          control={control}
          name="visibility"
          render={({ field }) => (
            <Group gap={6} align="flex-start" wrap="nowrap">
              <Radio.Group label={TEXTS.visibility} value={field.value} onChange={(value) => field.onChange(value)} name={field.name} style={{ flex: 1 }}>
                <Stack gap="xs" mt={6}>
                  {VISIBILITY_OPTIONS.map((option) => (
                    <Radio key={option.value} value={option.value} label={option.label} description={option.description} />
                  ))}
                </Stack>
              </Radio.Group>
              <HelpButton topicIndex={SETTING_HELP_TOPICS.shareOptions} />
            </Group>
          )}
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel}>
            {TEXTS.cancel}
          </Button>
          <Button type="submit" loading={saving}>
            {TEXTS.save}
          </Button>
        </Group>
        {saving && (
          <Text size="sm" c="dimmed" role="status">
            {TEXTS.saving}
          </Text>
        )}
      </Stack>
    </form>
  );
}

function ShareSaved({ share, onClose }: { share: ShareActor; onClose: () => void }) {
  const { visibility } = useSelector(share, selectShareValues);
  const mediaId = useSelector(share, selectSharedMediaId);
  const link = sharedUrl(mediaId);
  return (
    <Stack gap="md">
      <Text fw={600} role="status">
        {TEXTS.savedTitle} {TEXTS.where[visibility]}
      </Text>
      {visibility !== 'private' && (
        <Group gap="xs" align="flex-end" wrap="nowrap">
          <TextInput label={TEXTS.link} value={link} readOnly style={{ flex: 1 }} onFocus={(event) => event.currentTarget.select()} />
          <CopyButton value={link}>
            {({ copied, copy }) => (
              <Button variant={copied ? 'filled' : 'light'} color={copied ? 'teal' : undefined} onClick={copy}>
                {copied ? TEXTS.copied : TEXTS.copy}
              </Button>
            )}
          </CopyButton>
        </Group>
      )}
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={() => share.send({ type: 'share.edit' })}>
          {TEXTS.editAgain}
        </Button>
        <Button onClick={onClose}>{TEXTS.close}</Button>
      </Group>
    </Stack>
  );
}

export interface ShareModalProps {
  share: ShareActor;
  opened: boolean;
  onClose: () => void;
  /** The title the form offers when the result has none yet (its prompt, say). */
  fallbackTitle: string;
}

/**
 * The sharing form of a finished result (SPEC §2.8): title, description and who can see it; once
 * saved, the link to its page with a Copy button and where it now appears. A failure keeps the form
 * and shows the server's message.
 */
export function ShareModal({ share, opened, onClose, fallbackTitle }: ShareModalProps) {
  const status = useSelector(share, selectShareStatus);
  return (
    <OnceOpened opened={opened}>
      <Modal opened={opened} onClose={onClose} title={TEXTS.modalTitle} size="lg">
        {status === 'saved' ? (
          <ShareSaved share={share} onClose={onClose} />
        ) : (
          <ShareForm share={share} fallbackTitle={fallbackTitle} onCancel={onClose} />
        )}
      </Modal>
    </OnceOpened>
  );
}
