import { Anchor, Button, Group, Paper, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { useConfirm } from '@/components/confirm/use-confirm';
import { ASSETS_TEXTS } from '@/config/assets-texts';
import { ROUTES } from '@/config/routes';
import { assetsMachine, type Asset } from '@/machines/assets/assets.machine';
import {
  selectAssets,
  selectAssetsLoadError,
  selectAssetsStatus,
  selectCreateAssetError,
  selectCreatingAsset,
  selectDeleteAssetError,
} from '@/machines/assets/assets.selectors';
import { AssetForm } from '@/screens/assets/asset-form';
import { formatDate } from '@/lib/format';
import { inspect } from '@/lib/inspection/hub';

const TEXTS = ASSETS_TEXTS.list;

function AssetCard({ asset, onDelete }: { asset: Asset; onDelete: () => void }) {
  return (
    <Paper component="article" aria-label={asset.name} withBorder p="sm" radius="md">
      <Stack gap={6}>
        {asset.cover_url ? (
          <img
            src={asset.cover_url}
            alt={TEXTS.coverAlt(asset.name)}
            style={{ width: '100%', aspectRatio: '16 / 9', objectFit: 'cover', borderRadius: 6 }}
          />
        ) : (
          <div aria-hidden style={{ width: '100%', aspectRatio: '16 / 9', borderRadius: 6, background: 'var(--mantine-color-gray-2)' }} />
        )}
        <Anchor component={Link} to={ROUTES.asset(asset.id)} fw={600} aria-label={TEXTS.open(asset.name)}>
          {asset.name}
        </Anchor>
        {asset.description && (
          <Text size="sm" c="dimmed" lineClamp={2}>
            {asset.description}
          </Text>
        )}
        <Text size="xs" c="dimmed">
          {TEXTS.mediaCount(asset.media_count)} · {TEXTS.updated} <time dateTime={asset.updated_at}>{formatDate(asset.updated_at)}</time>
        </Text>
        <Group>
          <Button variant="subtle" color="red" size="compact-xs" onClick={onDelete} aria-label={TEXTS.delete(asset.name)}>
            {ASSETS_TEXTS.asset.deleteButton}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

/** The person's assets (last changed first), each opening its page, and the form making a new one. */
export function AssetsList() {
  const assets = useActorRef(assetsMachine, { inspect });
  const items = useSelector(assets, selectAssets);
  const status = useSelector(assets, selectAssetsStatus);
  const loadError = useSelector(assets, selectAssetsLoadError);
  const creating = useSelector(assets, selectCreatingAsset);
  const createError = useSelector(assets, selectCreateAssetError);
  const deleteError = useSelector(assets, selectDeleteAssetError);
  const confirm = useConfirm();
  const [created, setCreated] = useState<{ count: number; name: string }>({ count: 0, name: '' });

  useEffect(() => {
    const subscription = assets.on('assets.created', (event) =>
      setCreated((previous) => ({ count: previous.count + 1, name: event.asset.name })),
    );
    return () => subscription.unsubscribe();
  }, [assets]);

  return (
    <Stack gap="lg">
      <Stack gap="sm" component="section" aria-labelledby="assets-heading">
        <Title order={2} size="h3" id="assets-heading">
          {TEXTS.heading}
        </Title>
        {status === 'loading' ? (
          <Stack gap="xs" role="status" aria-label={TEXTS.loading}>
            <Skeleton height={120} radius="md" />
            <Skeleton height={120} radius="md" />
          </Stack>
        ) : status === 'failed' ? (
          <Group gap="sm">
            <Text c="red" role="alert">
              {TEXTS.failed} {loadError}
            </Text>
            <Button variant="default" size="xs" onClick={() => assets.send({ type: 'assets.refresh' })}>
              {ASSETS_TEXTS.retry}
            </Button>
          </Group>
        ) : items.length === 0 ? (
          <Text c="dimmed">{TEXTS.empty}</Text>
        ) : (
          <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="sm">
            {items.map((asset) => (
              <AssetCard key={asset.id} asset={asset} onDelete={() =>
                  confirm({
                    title: ASSETS_TEXTS.asset.deleteTitle,
                    text: ASSETS_TEXTS.asset.deleteText,
                    cancel: ASSETS_TEXTS.asset.deleteCancel,
                    confirm: ASSETS_TEXTS.asset.deleteConfirm,
                    onConfirm: () => assets.send({ type: 'assets.delete', id: asset.id }),
                  })
                } />
            ))}
          </SimpleGrid>
        )}
        {deleteError && (
          <Text size="sm" c="red" role="alert">
            {deleteError}
          </Text>
        )}
      </Stack>
      <AssetForm
        heading={ASSETS_TEXTS.create.heading}
        submitLabel={ASSETS_TEXTS.create.submit}
        busy={creating}
        error={createError}
        done={created.count > 0 ? ASSETS_TEXTS.create.created(created.name) : null}
        resetKey={created.count}
        onSubmit={(values) => assets.send({ type: 'assets.create', ...values })}
      />
    </Stack>
  );
}
