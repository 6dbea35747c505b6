import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Group, Paper, Stack, Text, TextInput, Textarea, Title } from '@mantine/core';
import { useEffect, useId } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { ASSET_DESCRIPTION_MAX, ASSET_NAME_MAX } from '@/config/assets';
import { ASSETS_TEXTS } from '@/config/assets-texts';

const TEXTS = ASSETS_TEXTS.create;

/** assetWriteSchema's limits, with the page's messages. */
export const assetFormSchema = z.object({
  name: z.string().trim().min(1, TEXTS.nameRequired).max(ASSET_NAME_MAX, TEXTS.nameTooLong(ASSET_NAME_MAX)),
  description: z.string().trim().max(ASSET_DESCRIPTION_MAX, TEXTS.descriptionTooLong(ASSET_DESCRIPTION_MAX)),
});
export type AssetFormValues = z.infer<typeof assetFormSchema>;

interface AssetFormProps {
  heading: string;
  submitLabel: string;
  initial?: AssetFormValues;
  busy: boolean;
  error: string | null;
  /** Shown after a save went through (e.g. "Saved."). */
  done?: string | null;
  onRetry?: () => void;
  onSubmit: (values: AssetFormValues) => void;
  /** Changes when the values were taken: a create form empties itself. */
  resetKey?: number;
}

/** Name and description of an asset: the create form of the list and the edit form of an asset. */
export function AssetForm({ heading, submitLabel, initial, busy, error, done, onRetry, onSubmit, resetKey }: AssetFormProps) {
  const headingId = useId();
  const { register, handleSubmit, reset, formState } = useForm<AssetFormValues>({
    resolver: zodResolver(assetFormSchema),
    defaultValues: initial ?? { name: '', description: '' },
  });

  useEffect(() => {
    if (resetKey) reset(initial ?? { name: '', description: '' });
    // Only a new reset key empties the form (initial is a fresh object every render).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [resetKey]);

  const submit = handleSubmit((values) => onSubmit({ name: values.name.trim(), description: values.description.trim() }));

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
        if (!busy) void submit(event);
      }}
    >
      <Stack gap="md">
        <Title order={2} size="h3" id={headingId}>
          {heading}
        </Title>
        <TextInput label={TEXTS.name} required maxLength={ASSET_NAME_MAX} error={formState.errors.name?.message} {...register('name')} />
        <Textarea
          label={TEXTS.description}
          rows={3}
          maxLength={ASSET_DESCRIPTION_MAX}
          error={formState.errors.description?.message}
          {...register('description')}
        />
        {error && (
          <Alert color="red" role="alert">
            <Group gap="sm" justify="space-between">
              <Text size="sm">{error}</Text>
              {onRetry && (
                <Button variant="default" size="xs" onClick={onRetry}>
                  {ASSETS_TEXTS.retry}
                </Button>
              )}
            </Group>
          </Alert>
        )}
        {done && !error && (
          <Text size="sm" c="teal" role="status">
            {done}
          </Text>
        )}
        <Group>
          <Button type="submit" loading={busy}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
