import { Anchor, Button, Container, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useSelector } from '@xstate/react';
import { useEffect } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { SessionActorContext } from '@/components/session/session-context';
import { CREDITS_TEXTS } from '@/config/credits-texts';
import { ROUTES } from '@/config/routes';
import { checkoutReturnFrom } from '@/machines/credits-page/credits-page.machine';
import { selectIsLeaving, selectOpeningPortal, selectSignInUndecided } from '@/machines/credits-page/credits-page.selectors';
import { selectOptionalCreditBalance, selectOptionalCreditsLoading } from '@/machines/session/credits.selectors';
import { selectCreditsRef, selectCurrentUserId, selectIsSignedIn } from '@/machines/session/session.selectors';
import { AutoRefillSection } from '@/screens/credits/auto-refill-section';
import { CheckoutNotice } from '@/screens/credits/checkout-notice';
import { CostComparison } from '@/screens/credits/cost-comparison';
import { CreditHistory } from '@/screens/credits/credit-history';
import { CreditPacks } from '@/screens/credits/credit-packs';
import { CreditsPageActorContext } from '@/screens/credits/credits-context';
import { leavePage } from '@/components/navigation/leave-page';
import { inspect } from '@/lib/inspection/hub';

const TOAST_COLORS = { success: 'green', error: 'red' } as const;

/**
 * What the page's actor announces, carried out: it leaves for the card provider's pages, shows the
 * toasts, and drops the checkout query once it was read (a reload then does not announce it
 * again). The balance refresh after a payment goes through the actor's own `account` actor.
 */
function useCreditsPageAnnouncements(): void {
  const page = CreditsPageActorContext.useActorRef();
  const navigate = useNavigate();

  useEffect(() => {
    const subscriptions = [
      page.on('creditsPage.leave', (event) => leavePage(event.url)),
      page.on('creditsPage.notify', (event) =>
        notifications.show({ color: TOAST_COLORS[event.tone], title: event.title, message: event.message }),
      ),
      page.on('creditsPage.returnHandled', () => void navigate(ROUTES.credits, { replace: true })),
    ];
    return () => subscriptions.forEach((subscription) => subscription.unsubscribe());
  }, [page, navigate]);
}

/** The balance the header shows too, from the session's credits actor. */
function BalanceSection({ balance }: { balance: number | null }) {
  const creditsRef = SessionActorContext.useSelector(selectCreditsRef);
  const loading = useSelector(creditsRef, selectOptionalCreditsLoading);
  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-labelledby="credits-balance-title">
      <Stack gap={4}>
        <Title order={2} size="h4" id="credits-balance-title">
          {CREDITS_TEXTS.balanceHeading}
        </Title>
        {balance === null && loading ? (
          <Skeleton height={32} width={160} role="status" aria-label={CREDITS_TEXTS.balanceLoading} />
        ) : (
          <Text size="xl" fw={700}>
            {balance === null ? CREDITS_TEXTS.balanceUnknown : CREDITS_TEXTS.balance(balance)}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}

/** The billing portal of the card provider: saved card, payments, receipts. */
function PortalSection() {
  const page = CreditsPageActorContext.useActorRef();
  const opening = CreditsPageActorContext.useSelector(selectOpeningPortal);
  const leaving = CreditsPageActorContext.useSelector(selectIsLeaving);
  return (
    <Stack gap="sm" component="section" aria-labelledby="credits-portal-title">
      <Title order={2} id="credits-portal-title">
        {CREDITS_TEXTS.portalHeading}
      </Title>
      <Text c="dimmed">{CREDITS_TEXTS.portalIntro}</Text>
      <div>
        <Button
          variant="default"
          loading={opening}
          disabled={leaving && !opening}
          onClick={() => page.send({ type: 'portal.open' })}
        >
          {CREDITS_TEXTS.portal}
        </Button>
      </div>
    </Stack>
  );
}

function CreditsPage() {
  useCreditsPageAnnouncements();
  const creditsRef = SessionActorContext.useSelector(selectCreditsRef);
  const balance = useSelector(creditsRef, selectOptionalCreditBalance);
  return (
    <Stack gap="xl">
      <CheckoutNotice />
      <BalanceSection balance={balance} />
      <CreditPacks />
      <AutoRefillSection />
      <PortalSection />
      <CostComparison balance={balance} />
      <CreditHistory />
    </Stack>
  );
}

/**
 * /credits (issue 7, SPEC §1 "buy credits, set credit auto-refill, view credit history … open a
 * billing portal and fetch receipts"): signed in, the page; signed out, a prompt to sign in and
 * no calls.
 */
export function CreditsScreen() {
  const deciding = SessionActorContext.useSelector(selectSignInUndecided);
  const signedIn = SessionActorContext.useSelector(selectIsSignedIn);
  const userId = SessionActorContext.useSelector(selectCurrentUserId);
  const session = SessionActorContext.useActorRef();
  const { search } = useLocation();
  return (
    <Container size="lg" py="xl">
      <Stack gap="lg">
        <Stack gap={4}>
          <Title order={1}>{CREDITS_TEXTS.title}</Title>
          <Text c="dimmed">{CREDITS_TEXTS.intro}</Text>
        </Stack>
        {deciding ? (
          <Skeleton height={120} radius="md" aria-hidden="true" />
        ) : signedIn ? (
          // One actor per person; it reads the checkout query once, when it starts.
          <CreditsPageActorContext.Provider
            key={userId ?? ''}
            options={{ id: 'creditsPage', input: { checkoutReturn: checkoutReturnFrom(search), session }, inspect }}
          >
            <CreditsPage />
          </CreditsPageActorContext.Provider>
        ) : (
          <Paper withBorder p="lg" radius="md">
            <Stack gap="xs">
              <Text>{CREDITS_TEXTS.signInPrompt}</Text>
              <div>
                <Anchor component={Link} to={ROUTES.authentication}>
                  {CREDITS_TEXTS.signIn}
                </Anchor>
              </div>
            </Stack>
          </Paper>
        )}
      </Stack>
    </Container>
  );
}
