import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Group, Input, Paper, Radio, Stack, TextInput, Title } from '@mantine/core';
import { useId } from 'react';
import { Controller, useFieldArray, useForm } from 'react-hook-form';
import { z } from 'zod';
import { UploadField } from '@/components/media/upload-field';
import { ALBUM_TEXTS } from '@/config/album-texts';
import { BATCH_PICTURES, BATCH_TITLE_MAX, BATCH_TYPES } from '@/config/batch';
import type { BatchType } from '@/config/batch';
import { ROUTES } from '@/config/routes';
import { ToolHelpButton } from '@/screens/tools/tool-help-button';

/** SPEC §2.10 help topics of the two album types. */
export const BATCH_HELP_TOPICS: Readonly<Record<BatchType, number>> = { ai: 25, parallax: 30 };

const TEXTS = ALBUM_TEXTS.create;

const uploadedCount = (pictures: readonly { url: string }[]): number => pictures.filter((picture) => picture.url !== '').length;

const newAlbumSchema = z.object({
  title: z.string().trim().min(1, TEXTS.titleRequired).max(BATCH_TITLE_MAX, TEXTS.titleTooLong(BATCH_TITLE_MAX)),
  batchType: z.enum(['ai', 'parallax']),
  // One slot per picture input; a slot left empty is not sent.
  pictures: z.array(z.object({ url: z.string() })).refine((pictures) => {
    const count = uploadedCount(pictures);
    return count >= BATCH_PICTURES.min && count <= BATCH_PICTURES.max;
  }, TEXTS.picturesNeeded(BATCH_PICTURES.min, BATCH_PICTURES.max)),
});
type NewAlbumValues = z.infer<typeof newAlbumSchema>;

export interface NewAlbum {
  title: string;
  batchType: BatchType;
  imageUrls: string[];
}

interface NewAlbumFormProps {
  creating: boolean;
  error: string | null;
  onCreate: (album: NewAlbum) => void;
}

/** "New album": a title, the album type (with its help) and 1–12 pictures, each uploaded in its own slot. */
export function NewAlbumForm({ creating, error, onCreate }: NewAlbumFormProps) {
  const { control, register, handleSubmit, setValue, watch, formState } = useForm<NewAlbumValues>({
    resolver: zodResolver(newAlbumSchema),
    defaultValues: { title: '', batchType: 'ai', pictures: [{ url: '' }] },
  });
  const { fields, append, remove } = useFieldArray({ control, name: 'pictures' });
  const pictures = watch('pictures');
  const headingId = useId();
  const picturesError = formState.errors.pictures?.root?.message ?? formState.errors.pictures?.message;

  const submit = handleSubmit((values) =>
    onCreate({
      title: values.title.trim(),
      batchType: values.batchType,
      imageUrls: values.pictures.map((picture) => picture.url).filter((url) => url !== ''),
    }),
  );

  return (
    <Paper
      withBorder
      p="lg"
      radius="md"
      component="form"
      noValidate
      aria-labelledby={headingId}
      onSubmit={(event) => {
        event.preventDefault();
        if (!creating) void submit(event);
      }}
    >
      <Stack gap="md">
        <Title order={2} size="h3" id={headingId}>
          {TEXTS.heading}
        </Title>
        <TextInput
          label={TEXTS.title}
          required
          maxLength={BATCH_TITLE_MAX}
          error={formState.errors.title?.message}
          {...register('title')}
        />
        <Controller
          control={control}
          name="batchType"
          render={({ field }) => (
            <Radio.Group label={TEXTS.type} value={field.value} onChange={(value) => field.onChange(value as BatchType)}>
              <Group gap="lg" mt={4}>
                {BATCH_TYPES.map((type) => (
                  <Group key={type.value} gap={6} align="center">
                    <Radio value={type.value} label={type.label} />
                    <ToolHelpButton topicIndex={BATCH_HELP_TOPICS[type.value]} />
                  </Group>
                ))}
              </Group>
            </Radio.Group>
          )}
        />
        <Input.Wrapper
          label={ALBUM_TEXTS.album.picturesHeading}
          description={TEXTS.pictureCount(uploadedCount(pictures), BATCH_PICTURES.max)}
          error={picturesError}
        >
          <Stack gap="sm" mt={4}>
            {fields.map((field, index) => (
              <Stack key={field.id} gap={4}>
                <UploadField
                  kind="image"
                  label={TEXTS.picture(index + 1)}
                  onChange={(url) =>
                    setValue(`pictures.${index}.url`, url ?? '', { shouldValidate: formState.isSubmitted })
                  }
                  uploadPagePath={ROUTES.aiImage.uploadImage}
                />
                {fields.length > 1 && (
                  <Group>
                    <Button variant="subtle" size="compact-xs" onClick={() => remove(index)}>
                      {TEXTS.removePicture(index + 1)}
                    </Button>
                  </Group>
                )}
              </Stack>
            ))}
            {fields.length < BATCH_PICTURES.max && (
              <Group>
                <Button variant="light" size="xs" onClick={() => append({ url: '' })}>
                  {TEXTS.addPicture}
                </Button>
              </Group>
            )}
          </Stack>
        </Input.Wrapper>
        {error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
        <Group>
          <Button type="submit" loading={creating}>
            {TEXTS.submit}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
