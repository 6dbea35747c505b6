import { Button, Group, Select, Stack, Text, TextInput } from '@mantine/core';
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useRef, useState } from 'react';
import { z } from 'zod';
import { SessionActorContext } from '@/components/session/session-context';
import { ASSET_NAME_MAX } from '@/config/assets';
import { ASSETS_TEXTS } from '@/config/assets-texts';
import { assetsMachine } from '@/machines/assets/assets.machine';
import {
  selectAssets,
  selectAssetsStatus,
  selectCreateAssetError,
  selectCreatingAsset,
} from '@/machines/assets/assets.selectors';
import { selectCurrentUserId, selectIsSignedIn } from '@/machines/session/session.selectors';
import { inspect } from '@/lib/inspection/hub';

const TEXTS = ASSETS_TEXTS.select;
const NONE = '__none__';
const NEW = '__new__';

const newNameSchema = z
  .string()
  .trim()
  .min(1, ASSETS_TEXTS.create.nameRequired)
  .max(ASSET_NAME_MAX, ASSETS_TEXTS.create.nameTooLong(ASSET_NAME_MAX));

export interface AssetSelectProps {
  /** The chosen asset's id; null for none. */
  value: string | null;
  onChange: (assetId: string | null) => void;
}

function SignedInAssetSelect({ value, onChange }: AssetSelectProps) {
  const assets = useActorRef(assetsMachine, { inspect });
  const items = useSelector(assets, selectAssets);
  const status = useSelector(assets, selectAssetsStatus);
  const creating = useSelector(assets, selectCreatingAsset);
  const createError = useSelector(assets, selectCreateAssetError);
  const [adding, setAdding] = useState(false);
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);

  const onChangeRef = useRef(onChange);
  useEffect(() => {
    onChangeRef.current = onChange;
  });

  useEffect(() => {
    const subscription = assets.on('assets.created', (event) => {
      onChangeRef.current(event.asset.id);
      setAdding(false);
      setName('');
    });
    return () => subscription.unsubscribe();
  }, [assets]);

  const create = () => {
    const checked = newNameSchema.safeParse(name);
    if (!checked.success) {
      setNameError(checked.error.issues[0]?.message ?? ASSETS_TEXTS.create.nameRequired);
      return;
    }
    setNameError(null);
    assets.send({ type: 'assets.create', name: checked.data });
  };

  const data = [
    { value: NONE, label: TEXTS.none },
    ...items.map((asset) => ({ value: asset.id, label: asset.name })),
    { value: NEW, label: TEXTS.newAsset },
  ];

  return (
    <Stack gap={4}>
      <Select
        label={TEXTS.label}
        description={status === 'loading' ? TEXTS.loading : TEXTS.description}
        data={data}
        value={adding ? NEW : (value ?? NONE)}
        allowDeselect={false}
        onChange={(chosen) => {
          if (chosen === NEW) {
            setAdding(true);
            return;
          }
          setAdding(false);
          onChange(!chosen || chosen === NONE ? null : chosen);
        }}
      />
      {status === 'failed' && (
        <Group gap="sm">
          <Text size="sm" c="red" role="alert">
            {TEXTS.failed}
          </Text>
          <Button variant="default" size="xs" onClick={() => assets.send({ type: 'assets.refresh' })}>
            {ASSETS_TEXTS.retry}
          </Button>
        </Group>
      )}
      {adding && (
        <Group gap="sm" align="flex-start">
          <TextInput
            label={TEXTS.newName}
            value={name}
            maxLength={ASSET_NAME_MAX}
            error={nameError ?? createError ?? undefined}
            onChange={(event) => setName(event.currentTarget.value)}
            onKeyDown={(event) => {
              // Inside a tool's form: Enter makes the asset, it does not start the job.
              if (event.key === 'Enter') {
                event.preventDefault();
                create();
              }
            }}
            style={{ flex: 1 }}
            data-autofocus
          />
          <Group gap="xs" mt={25}>
            <Button size="xs" loading={creating} onClick={create}>
              {TEXTS.create}
            </Button>
            <Button size="xs" variant="default" onClick={() => setAdding(false)}>
              {TEXTS.cancel}
            </Button>
          </Group>
        </Group>
      )}
    </Stack>
  );
}

/**
 * "Save results to asset" on a tool's form: None, the person's assets, or "New asset…" made on
 * the spot (and chosen). Signed out, nothing is shown.
 */
export function AssetSelect(props: AssetSelectProps) {
  const signedIn = SessionActorContext.useSelector(selectIsSignedIn);
  const userId = SessionActorContext.useSelector(selectCurrentUserId);
  const { onChange } = props;
  // Another person (or signing out) starts with no asset chosen.
  useEffect(() => {
    onChange(null);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [userId, signedIn]);
  if (!signedIn) return null;
  return <SignedInAssetSelect key={userId ?? ''} {...props} />;
}
