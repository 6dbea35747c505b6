import { Anchor, Container, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useActorRef, useSelector } from '@xstate/react';
import { Link } from 'react-router-dom';
import { MediaResultCard } from '@/components/media/media-result-card';
import { UploadField } from '@/components/media/upload-field';
import { SessionActorContext } from '@/components/session/session-context';
import type { MediaKind } from '@/config/enums';
import { UPLOAD_ENDPOINTS } from '@/config/generation-tools';
import { TOOL_TEXTS } from '@/config/job-texts';
import { ROUTES } from '@/config/routes';
import { toolHistoryMachine } from '@/machines/tool-history/tool-history.machine';
import { selectHistory } from '@/machines/tool-history/tool-history.selectors';
import { selectCurrentUserId, selectIsSignedIn } from '@/machines/session/session.selectors';
import { ToolPageHeader } from '@/screens/tools/tool-page-header';
import { inspect } from '@/lib/inspection/hub';

/** The person's earlier uploads of this kind, newest first; reloaded after each new upload. */
function Uploads({ kind }: { kind: MediaKind }) {
  const history = useActorRef(toolHistoryMachine, { input: { tool: UPLOAD_ENDPOINTS[kind].tool }, inspect });
  const uploads = useSelector(history, selectHistory);
  return (
    <Stack gap="sm" component="section" aria-labelledby="uploads-heading">
      <Title order={2} size="h3" id="uploads-heading">
        {TOOL_TEXTS.upload.uploadedHeading}
      </Title>
      <UploadField
        kind={kind}
        label={TOOL_TEXTS.upload.fieldLabel(kind)}
        onChange={() => {}}
        onUploaded={() => history.send({ type: 'history.refresh' })}
      />
      {uploads.length === 0 ? (
        <Text c="dimmed">{TOOL_TEXTS.upload.uploadsEmpty}</Text>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          {uploads.map((media) => (
            <MediaResultCard key={media.id} media={media} highlighted={false} />
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}

export interface UploadScreenProps {
  kind: MediaKind;
  title: string;
  groupLabel: string;
  groupPath: string;
}

/**
 * Upload Image / Upload Audio (SPEC §2.5): a file checked against SPEC §5 before it is sent, then
 * stored on the server; the uploads can then be used as tool inputs.
 */
export function UploadScreen({ kind, title, groupLabel, groupPath }: UploadScreenProps) {
  const signedIn = SessionActorContext.useSelector(selectIsSignedIn);
  const userId = SessionActorContext.useSelector(selectCurrentUserId);
  return (
    <Container size="md" py="xl">
      <Stack gap="lg">
        <ToolPageHeader title={title} groupLabel={groupLabel} groupPath={groupPath} />
        {signedIn ? (
          <Uploads key={userId ?? ''} kind={kind} />
        ) : (
          <Paper withBorder p="lg" radius="md">
            <Group gap="xs">
              <Anchor component={Link} to={ROUTES.authentication}>
                {TOOL_TEXTS.signInToUpload}
              </Anchor>
            </Group>
          </Paper>
        )}
      </Stack>
    </Container>
  );
}
