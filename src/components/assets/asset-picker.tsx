import { Anchor, Button, Group, Loader, Modal, Select, SimpleGrid, Stack, Text, UnstyledButton } from '@mantine/core';
import { useActorRef, useSelector } from '@xstate/react';
import { Link } from 'react-router-dom';
import type { MediaKind } from '@/config/enums';
import { ASSETS_TEXTS } from '@/config/assets-texts';
import { ROUTES } from '@/config/routes';
import { assetPickerMachine } from '@/machines/assets/asset-picker.machine';
import {
  selectPickableResults,
  selectPickerAssets,
  selectPickerChosenId,
  selectPickerError,
  selectPickerStatus,
  type PickableResult,
} from '@/machines/assets/asset-picker.selectors';
import { inspect } from '@/lib/inspection/hub';
import { OnceOpened } from '@/components/once-opened';

export type { PickableResult } from '@/machines/assets/asset-picker.selectors';

const TEXTS = ASSETS_TEXTS.picker;

function ResultPreview({ kind, result }: { kind: MediaKind; result: PickableResult }) {
  if (kind === 'image') {
    return (
      <img
        src={result.thumbnailUrl ?? result.url}
        alt=""
        style={{ width: '100%', aspectRatio: '1 / 1', objectFit: 'cover', borderRadius: 6, display: 'block' }}
      />
    );
  }
  if (kind === 'video') {
    return (
      <video
        src={result.url}
        poster={result.thumbnailUrl ?? undefined}
        preload="metadata"
        muted
        aria-hidden
        style={{ width: '100%', aspectRatio: '16 / 9', objectFit: 'cover', borderRadius: 6, background: 'black' }}
      />
    );
  }
  return (
    <Text size="sm" c="dimmed">
      ♪
    </Text>
  );
}

interface PickerBodyProps {
  kind: MediaKind;
  onPick: (result: PickableResult) => void;
}

/** The picker's actor lives while the modal is open: each opening reads the assets afresh. */
function PickerBody({ kind, onPick }: PickerBodyProps) {
  const picker = useActorRef(assetPickerMachine, { input: { kind }, inspect });
  const status = useSelector(picker, selectPickerStatus);
  const assets = useSelector(picker, selectPickerAssets);
  const chosenId = useSelector(picker, selectPickerChosenId);
  const error = useSelector(picker, selectPickerError);
  const results = useSelector(picker, selectPickableResults);

  if (status === 'loading') {
    return (
      <Group gap="sm" role="status">
        <Loader size="sm" />
        <Text size="sm">{TEXTS.loading}</Text>
      </Group>
    );
  }
  if (status === 'empty') {
    return (
      <Stack gap="xs">
        <Text size="sm">{TEXTS.noAssets}</Text>
        <Anchor component={Link} to={ROUTES.assets} size="sm">
          {TEXTS.openAssets}
        </Anchor>
      </Stack>
    );
  }
  return (
    <Stack gap="md">
      {assets.length > 0 && (
        <Select
          label={TEXTS.asset}
          data={assets.map((asset) => ({ value: asset.id, label: asset.name }))}
          value={chosenId}
          allowDeselect={false}
          onChange={(id) => {
            if (id) picker.send({ type: 'picker.chooseAsset', id });
          }}
        />
      )}
      {status === 'failed' ? (
        <Group gap="sm">
          <Text size="sm" c="red" role="alert">
            {error ?? TEXTS.failed}
          </Text>
          <Button variant="default" size="xs" onClick={() => picker.send({ type: 'picker.retry' })}>
            {ASSETS_TEXTS.retry}
          </Button>
        </Group>
      ) : status === 'loadingAsset' ? (
        <Group gap="sm" role="status">
          <Loader size="sm" />
          <Text size="sm">{TEXTS.loading}</Text>
        </Group>
      ) : results.length === 0 ? (
        <Text size="sm" c="dimmed">
          {TEXTS.none(kind)}
        </Text>
      ) : (
        <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="sm">
          {results.map((result) => (
            <UnstyledButton
              key={result.key}
              onClick={() => onPick(result)}
              aria-label={TEXTS.choose(result.label)}
              style={{ borderRadius: 8, border: '1px solid var(--mantine-color-gray-4)', padding: 6 }}
            >
              <Stack gap={4}>
                <ResultPreview kind={kind} result={result} />
                <Text size="xs" lineClamp={2}>
                  {result.label}
                </Text>
              </Stack>
            </UnstyledButton>
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}

export interface AssetPickerProps {
  opened: boolean;
  kind: MediaKind;
  onClose: () => void;
  /** The result chosen; the modal is closed by the caller. */
  onPick: (result: PickableResult) => void;
}

/** "Choose from assets": a modal listing the finished results of one kind kept in the person's assets. */
export function AssetPicker({ opened, kind, onClose, onPick }: AssetPickerProps) {
  return (
    <OnceOpened opened={opened}>
      <Modal opened={opened} onClose={onClose} title={TEXTS.title(kind)} size="lg" centered>
        {opened && <PickerBody kind={kind} onPick={onPick} />}
      </Modal>
    </OnceOpened>
  );
}
