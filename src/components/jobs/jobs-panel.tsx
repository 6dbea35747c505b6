import { Anchor, Badge, Button, Drawer, Stack, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { HISTORY_TEXTS } from '@/config/history-texts';
import { JOB_TEXTS } from '@/config/job-texts';
import { LIBRARY_TEXTS } from '@/config/library-texts';
import { ROUTES } from '@/config/routes';
import { JobRow, type JobRowProps } from '@/components/jobs/job-row';
import { JobsActorContext } from '@/components/jobs/jobs-context';
import { selectJobEntries, selectLiveCount } from '@/machines/jobs/jobs.selectors';
import { OnceOpened } from '@/components/once-opened';

type Permission = NotificationPermission | 'unsupported';

const currentPermission = (): Permission =>
  typeof Notification === 'undefined' ? 'unsupported' : Notification.permission;

/** "Notify me on desktop", offered while the browser has not been asked yet. */
function DesktopNotificationsButton() {
  const [permission, setPermission] = useState<Permission>(currentPermission);
  if (permission === 'unsupported' || permission === 'granted') return null;
  if (permission === 'denied') {
    return (
      <Text size="xs" c="dimmed">
        {JOB_TEXTS.notifyBlocked}
      </Text>
    );
  }
  const ask = async () => setPermission(await Notification.requestPermission());
  return (
    <Button variant="light" size="xs" onClick={() => void ask()}>
      {JOB_TEXTS.notifyDesktop}
    </Button>
  );
}

/**
 * The header's "Jobs" button and the panel it opens: every live and recent job across tools
 * (issue 4 item 6). The badge counts the running ones.
 */
/** One titled list of the panel (the running jobs, or the finished ones); nothing when empty. */
function JobSection({ heading, entries, ...row }: { heading: string; entries: readonly JobRowProps['entry'][] } & Omit<JobRowProps, 'entry'>) {
  if (entries.length === 0) return null;
  return (
    <Stack gap="xs">
      <Title order={3} size="h5">
        {heading}
      </Title>
      <Stack component="ul" gap="xs" p={0} m={0} style={{ listStyle: 'none' }} aria-label={heading}>
        {entries.map((entry) => (
          <JobRow key={entry.localId} entry={entry} {...row} />
        ))}
      </Stack>
    </Stack>
  );
}

export function JobsPanel() {
  const jobs = JobsActorContext.useActorRef();
  const entries = JobsActorContext.useSelector(selectJobEntries);
  const running = JobsActorContext.useSelector(selectLiveCount);
  const [opened, { open, close }] = useDisclosure(false);
  // Live jobs first (newest first), then the finished ones (newest first).
  const live = entries.filter((entry) => entry.stored.outcome === null);
  const recent = entries.filter((entry) => entry.stored.outcome !== null);
  const cancel = (localId: string) => jobs.send({ type: 'jobs.cancel', localId });
  const dismiss = (localId: string) => jobs.send({ type: 'jobs.dismiss', localId });

  return (
    <>
      <Button
        variant="default"
        size="sm"
        px={{ base: 'xs', sm: 'md' }}
        onClick={open}
        aria-label={JOB_TEXTS.buttonLabel(running)}
        aria-haspopup="dialog"
        aria-expanded={opened}
        rightSection={
          running > 0 ? (
            <Badge size="sm" circle aria-hidden="true">
              {running}
            </Badge>
          ) : undefined
        }
      >
        {JOB_TEXTS.button}
      </Button>
      <OnceOpened opened={opened}>
        <Drawer opened={opened} onClose={close} position="right" title={JOB_TEXTS.panelTitle} size="md">
          <Stack gap="md">
            <DesktopNotificationsButton />
            {entries.length === 0 && <Text c="dimmed">{JOB_TEXTS.empty}</Text>}
            <JobSection heading={JOB_TEXTS.liveHeading} entries={live} onCancel={cancel} onDismiss={dismiss} onNavigate={close} />
            <JobSection heading={JOB_TEXTS.recentHeading} entries={recent} onCancel={cancel} onDismiss={dismiss} onNavigate={close} />
            {/* Every job, from any device, older ones too: the History page. */}
            <Anchor component={Link} to={ROUTES.history} size="sm" onClick={close}>
              {HISTORY_TEXTS.panelLink}
            </Anchor>
            {/* Every finished result, with folders: the Library. */}
            <Anchor component={Link} to={ROUTES.library} size="sm" onClick={close}>
              {LIBRARY_TEXTS.panelLink}
            </Anchor>
          </Stack>
        </Drawer>
      </OnceOpened>
    </>
  );
}
