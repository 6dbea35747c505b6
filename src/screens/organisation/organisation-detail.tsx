import { Alert, Anchor, Badge, Button, Card, CloseButton, Group, SimpleGrid, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { CREDIT_PACKS, formatPrice } from '@/config/billing';
import { ORGANISATION_TEXTS } from '@/config/organisation-texts';
import { ROUTES } from '@/config/routes';
import type { CheckoutReturn, OrganisationNotice } from '@/machines/organisation/organisation.machine';
import {
  selectBalance,
  selectCustomer,
  selectIsOwner,
  selectLoadError,
  selectNotice,
  selectOrganisationBusy,
  selectOrganisationStatus,
  selectTransfers,
} from '@/machines/organisation/organisation.selectors';
import { OrganisationActorContext } from '@/screens/organisation/organisation-context';
import { AddMemberForm, MembersSection } from '@/screens/organisation/organisation-members';
import { formatDateTime } from '@/lib/format';
import { inspect } from '@/lib/inspection/hub';

const TEXTS = ORGANISATION_TEXTS;
const NOTICE_COLORS: Record<OrganisationNotice['tone'], string> = { success: 'teal', info: 'blue', error: 'red' };

/** `?checkout=success|cancelled&session_id=` as the card provider's checkout sends the person back. */
export function checkoutReturnOf(params: URLSearchParams): CheckoutReturn | null {
  const outcome = params.get('checkout');
  const sessionId = params.get('session_id');
  if ((outcome !== 'success' && outcome !== 'cancelled') || !sessionId) return null;
  return { outcome, sessionId };
}

/** Leaves for the checkout when the machine says so; clears the checkout query once it is read. */
function useOrganisationBridge(leaveApp: (url: string) => void): void {
  const organisation = OrganisationActorContext.useActorRef();
  const [, setSearchParams] = useSearchParams();
  const leaveRef = useRef(leaveApp);
  useEffect(() => {
    leaveRef.current = leaveApp;
  }, [leaveApp]);
  useEffect(() => {
    const subscriptions = [
      organisation.on('organisation.leave', (event) => leaveRef.current(event.url)),
      organisation.on('organisation.checkoutHandled', () =>
        setSearchParams(
          (params) => {
            const next = new URLSearchParams(params);
            next.delete('checkout');
            next.delete('session_id');
            return next;
          },
          { replace: true },
        ),
      ),
    ];
    return () => subscriptions.forEach((subscription) => subscription.unsubscribe());
  }, [organisation, setSearchParams]);
}

function Notice() {
  const organisation = OrganisationActorContext.useActorRef();
  const notice = OrganisationActorContext.useSelector(selectNotice);
  if (!notice) return null;
  return (
    <Alert
      color={NOTICE_COLORS[notice.tone]}
      title={notice.title}
      role={notice.tone === 'error' ? 'alert' : 'status'}
      withCloseButton={false}
    >
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <Text size="sm">{notice.text}</Text>
        <CloseButton size="sm" aria-label={TEXTS.dismiss} onClick={() => organisation.send({ type: 'organisation.dismissNotice' })} />
      </Group>
    </Alert>
  );
}

/** The owner buys a pack for the organisation: the checkout opens, paying there credits the organisation. */
function BuyCredits() {
  const organisation = OrganisationActorContext.useActorRef();
  const busy = OrganisationActorContext.useSelector(selectOrganisationBusy);
  return (
    <Stack gap="sm" component="section" aria-labelledby="buy-heading">
      <Title order={2} size="h3" id="buy-heading">
        {TEXTS.buy.heading}
      </Title>
      <Text size="sm" c="dimmed">
        {busy === 'leaving' ? TEXTS.buy.leaving : TEXTS.buy.hint}
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
        {CREDIT_PACKS.map((pack) => (
          <Card key={pack.id} withBorder radius="md" padding="sm">
            <Stack gap="xs">
              <Text fw={600}>{TEXTS.buy.pack(pack.label, pack.credits, formatPrice(pack.priceCents))}</Text>
              <Button
                variant="light"
                loading={busy === 'purchasing' || busy === 'leaving'}
                disabled={busy !== null}
                onClick={() => organisation.send({ type: 'organisation.buy', packId: pack.id })}
              >
                {TEXTS.buy.buy(pack.label)}
              </Button>
            </Stack>
          </Card>
        ))}
      </SimpleGrid>
    </Stack>
  );
}

function RecentTransfers() {
  const transfers = OrganisationActorContext.useSelector(selectTransfers);
  return (
    <Stack gap="sm" component="section" aria-labelledby="transfers-heading">
      <Title order={2} size="h3" id="transfers-heading">
        {TEXTS.transfers.heading}
      </Title>
      {transfers.length === 0 ? (
        <Text c="dimmed">{TEXTS.transfers.empty}</Text>
      ) : (
        <Table.ScrollContainer minWidth={420}>
          <Table aria-label={TEXTS.transfers.tableLabel} verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{TEXTS.transfers.member}</Table.Th>
                <Table.Th scope="col">{TEXTS.transfers.credits}</Table.Th>
                <Table.Th scope="col">{TEXTS.transfers.date}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {transfers.map((transfer) => (
                <Table.Tr key={transfer.id}>
                  <Table.Td>{transfer.member_handle ? `@${transfer.member_handle}` : transfer.member_id}</Table.Td>
                  <Table.Td>{transfer.credits}</Table.Td>
                  <Table.Td>
                    <time dateTime={transfer.created_at}>{formatDateTime(transfer.created_at)}</time>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}

function DetailSkeleton({ label }: { label: string }) {
  return (
    <Stack gap="sm" aria-busy="true" aria-label={label}>
      <Text c="dimmed" role="status">
        {label}
      </Text>
      <Skeleton height={32} width="40%" />
      <Skeleton height={80} radius="md" />
      <Skeleton height={160} radius="md" />
    </Stack>
  );
}

function OrganisationPage({ leaveApp }: { leaveApp: (url: string) => void }) {
  useOrganisationBridge(leaveApp);
  const organisation = OrganisationActorContext.useActorRef();
  const status = OrganisationActorContext.useSelector(selectOrganisationStatus);
  const customer = OrganisationActorContext.useSelector(selectCustomer);
  const owner = OrganisationActorContext.useSelector(selectIsOwner);
  const balance = OrganisationActorContext.useSelector(selectBalance);
  const loadError = OrganisationActorContext.useSelector(selectLoadError);
  const back = (
    <Anchor component={Link} to={ROUTES.organisation} size="sm">
      {TEXTS.detail.allOrganisations}
    </Anchor>
  );

  if (status === 'checkingCheckout' || status === 'loading') {
    return (
      <Stack gap="lg">
        {back}
        <DetailSkeleton label={status === 'checkingCheckout' ? TEXTS.checkout.checking : TEXTS.detail.loading} />
      </Stack>
    );
  }
  if (status === 'notFound' || status === 'failed' || !customer) {
    return (
      <Stack gap="lg">
        {back}
        <Notice />
        <Alert color={status === 'notFound' ? 'yellow' : 'red'} role="alert">
          <Stack gap="xs">
            <Text>{status === 'notFound' ? TEXTS.detail.notFound : TEXTS.detail.loadFailed}</Text>
            {status === 'failed' && loadError && <Text size="sm">{loadError}</Text>}
            {status === 'failed' && (
              <Group>
                <Button variant="default" size="xs" onClick={() => organisation.send({ type: 'organisation.retry' })}>
                  {TEXTS.retry}
                </Button>
              </Group>
            )}
          </Stack>
        </Alert>
      </Stack>
    );
  }

  const ownerName = owner ? TEXTS.detail.you : customer.owner.preferred_username ? `@${customer.owner.preferred_username}` : TEXTS.detail.unknownOwner;
  return (
    <Stack gap="lg">
      {back}
      <Stack gap={4}>
        <Group gap="sm" align="center">
          <Title order={1}>{customer.name}</Title>
          <Badge variant="light" color={owner ? 'violet' : 'blue'} style={{ textTransform: 'none' }}>
            {owner ? TEXTS.detail.roleBadge.owner : TEXTS.detail.roleBadge.member}
          </Badge>
        </Group>
        <Text c="dimmed">{TEXTS.detail.ownedBy(ownerName)}</Text>
      </Stack>
      <Notice />
      {owner ? (
        <>
          <Card withBorder radius="md" padding="md" component="section" aria-labelledby="balance-heading">
            <Text size="sm" c="dimmed" id="balance-heading">
              {TEXTS.detail.balanceLabel}
            </Text>
            <Text size="xl" fw={700}>
              {TEXTS.detail.balance(balance ?? 0)}
            </Text>
          </Card>
          <BuyCredits />
          <MembersSection />
          <AddMemberForm />
          <RecentTransfers />
        </>
      ) : (
        <>
          <Alert color="blue" variant="light">
            {TEXTS.detail.memberNote}
          </Alert>
          <MembersSection />
        </>
      )}
    </Stack>
  );
}

/** /organisation/:id for one organisation; the checkout query is read once, when the page opens. */
export function OrganisationDetail({ id, leaveApp }: { id: string; leaveApp: (url: string) => void }) {
  const [searchParams] = useSearchParams();
  // Read once: the actor is made with it and the bridge clears it from the address afterwards.
  const [checkout] = useState(() => checkoutReturnOf(searchParams));
  return (
    <OrganisationActorContext.Provider options={{ id: 'organisation', input: { customerId: id, checkout }, inspect }}>
      <OrganisationPage leaveApp={leaveApp} />
    </OrganisationActorContext.Provider>
  );
}

