import { Alert, Anchor, Button, Group, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { useConfirm } from '@/components/confirm/use-confirm';
import { animatePicturePath, editVideoPath, MediaResultCard, shownResults } from '@/components/media/media-result-card';
import { ASSETS_TEXTS } from '@/config/assets-texts';
import { ROUTES } from '@/config/routes';
import { classifyStatus } from '@/lib/job-status';
import { assetMachine, type Media } from '@/machines/assets/asset.machine';
import {
  selectAsset,
  selectAssetBusy,
  selectAssetDeleting,
  selectAssetFailure,
  selectAssetMedia,
  selectAssetSaving,
  selectAssetStatus,
  selectRemovingMedia,
  selectSavedCount,
} from '@/machines/assets/asset.selectors';
import { AssetForm } from '@/screens/assets/asset-form';
import { inspect } from '@/lib/inspection/hub';

const TEXTS = ASSETS_TEXTS.asset;

/** "Use in a tool": a video result goes to Edit Video (`?video=&item=`), a picture to AI Motion (`?image=&item=`). */
function UseInTool({ media }: { media: Media }) {
  if (classifyStatus(media.status) !== 'success' || media.kind === 'audio') return null;
  const results = shownResults(media).filter((result) => result.itemIndex !== null);
  if (results.length === 0) return null;
  return (
    <Group gap="sm" aria-label={TEXTS.useInTool} role="group">
      <Text size="xs" c="dimmed">
        {TEXTS.useInTool}:
      </Text>
      {results.map((result) =>
        media.kind === 'video' ? (
          <Anchor
            key={result.itemIndex}
            component={Link}
            to={editVideoPath(media.id, result.itemIndex ?? 0)}
            size="xs"
            aria-label={TEXTS.toolLinkLabel(TEXTS.useInEditVideo, result.label)}
          >
            {TEXTS.useInEditVideo}
          </Anchor>
        ) : (
          <Anchor
            key={result.itemIndex}
            component={Link}
            to={animatePicturePath(media.id, result.itemIndex ?? 0)}
            size="xs"
            aria-label={TEXTS.toolLinkLabel(TEXTS.useInAiMotion, result.label)}
          >
            {TEXTS.useInAiMotion}
          </Anchor>
        ),
      )}
    </Group>
  );
}

/** One asset: its name and description (editable), the results in it, and "Delete asset". */
export function AssetPage({ id }: { id: string }) {
  const asset = useActorRef(assetMachine, { input: { id }, inspect });
  const status = useSelector(asset, selectAssetStatus);
  const current = useSelector(asset, selectAsset);
  const media = useSelector(asset, selectAssetMedia);
  const failure = useSelector(asset, selectAssetFailure);
  const saving = useSelector(asset, selectAssetSaving);
  const deleting = useSelector(asset, selectAssetDeleting);
  const removing = useSelector(asset, selectRemovingMedia);
  const busy = useSelector(asset, selectAssetBusy);
  const savedCount = useSelector(asset, selectSavedCount);
  const confirm = useConfirm();
  const navigate = useNavigate();

  useEffect(() => {
    if (status === 'deleted') void navigate(ROUTES.assets, { replace: true });
  }, [status, navigate]);

  const back = (
    <Anchor component={Link} to={ROUTES.assets} size="sm">
      {TEXTS.back}
    </Anchor>
  );

  if (status === 'loading') {
    return (
      <Stack gap="md" role="status" aria-label={TEXTS.loading}>
        {back}
        <Skeleton height={36} width="40%" />
        <Skeleton height={160} radius="md" />
      </Stack>
    );
  }
  if (status === 'notFound' || status === 'failed' || !current) {
    return (
      <Stack gap="md">
        {back}
        <Title order={1}>{ASSETS_TEXTS.title}</Title>
        <Alert color="red" role="alert">
          <Stack gap="xs">
            <Text size="sm">{status === 'notFound' ? TEXTS.notFound : `${TEXTS.failed} ${failure?.message ?? ''}`}</Text>
            {status === 'failed' && (
              <Group>
                <Button variant="default" size="xs" onClick={() => asset.send({ type: 'asset.retry' })}>
                  {ASSETS_TEXTS.retry}
                </Button>
              </Group>
            )}
          </Stack>
        </Alert>
      </Stack>
    );
  }

  const changeFailure = failure && (failure.action === 'remove' || failure.action === 'delete') ? failure : null;

  return (
    <Stack gap="lg">
      <Stack gap={4}>
        {back}
        <Title order={1}>{current.name}</Title>
        {current.description && <Text c="dimmed">{current.description}</Text>}
      </Stack>

      <AssetForm
        key={current.id}
        heading={TEXTS.detailsHeading}
        submitLabel={TEXTS.save}
        initial={{ name: current.name, description: current.description }}
        busy={saving}
        error={failure?.action === 'save' ? failure.message : null}
        done={savedCount > 0 ? TEXTS.saved : null}
        onRetry={() => asset.send({ type: 'asset.retry' })}
        onSubmit={(values) => asset.send({ type: 'asset.save', ...values })}
      />

      <Stack gap="sm" component="section" aria-labelledby="asset-media-heading">
        <Title order={2} size="h3" id="asset-media-heading">
          {TEXTS.mediaHeading}
        </Title>
        {changeFailure && (
          <Alert color="red" role="alert">
            <Group gap="sm" justify="space-between">
              <Text size="sm">{changeFailure.message}</Text>
              <Button variant="default" size="xs" onClick={() => asset.send({ type: 'asset.retry' })}>
                {ASSETS_TEXTS.retry}
              </Button>
            </Group>
          </Alert>
        )}
        {media.length === 0 ? (
          <Text c="dimmed">{TEXTS.empty}</Text>
        ) : (
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
            {media.map((item) => (
              <Stack key={item.id} gap={6}>
                <MediaResultCard media={item} highlighted={false} />
                <Group justify="space-between" gap="xs">
                  <UseInTool media={item} />
                  <Button
                    variant="subtle"
                    color="red"
                    size="compact-xs"
                    loading={removing === item.id}
                    disabled={busy && removing !== item.id}
                    aria-label={TEXTS.removeLabel(item.title || item.option || item.tool)}
                    onClick={() => asset.send({ type: 'asset.removeMedia', mediaId: item.id })}
                  >
                    {TEXTS.remove}
                  </Button>
                </Group>
              </Stack>
            ))}
          </SimpleGrid>
        )}
      </Stack>

      <Group>
        <Button color="red" variant="light" loading={deleting} disabled={busy && !deleting} onClick={() =>
            confirm({
              title: TEXTS.deleteTitle,
              text: TEXTS.deleteText,
              cancel: TEXTS.deleteCancel,
              confirm: TEXTS.deleteConfirm,
              onConfirm: () => asset.send({ type: 'asset.delete' }),
            })
          }
        >
          {TEXTS.deleteButton}
        </Button>
      </Group>
    </Stack>
  );
}
