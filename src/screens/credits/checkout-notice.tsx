import { Alert, Group, Loader, Text } from '@mantine/core';
import { CREDITS_TEXTS } from '@/config/credits-texts';
import type { CheckoutResult } from '@/machines/credits-page/credits-page.machine';
import { selectCheckoutChecking, selectCheckoutResult } from '@/machines/credits-page/credits-page.selectors';
import { CreditsPageActorContext } from '@/screens/credits/credits-context';

const NOTICES: Record<CheckoutResult['outcome'], { color: string; text: (credits: number) => string }> = {
  paid: { color: 'green', text: CREDITS_TEXTS.paymentReceived },
  cancelled: { color: 'gray', text: () => CREDITS_TEXTS.paymentCancelled },
  declined: { color: 'yellow', text: () => CREDITS_TEXTS.paymentDeclined },
  expired: { color: 'yellow', text: () => CREDITS_TEXTS.paymentExpired },
  pending: { color: 'blue', text: () => CREDITS_TEXTS.paymentPending },
  unknown: { color: 'red', text: () => CREDITS_TEXTS.paymentUnknown },
};

/** What became of the checkout the person just came back from (nothing on an ordinary visit). */
export function CheckoutNotice() {
  const page = CreditsPageActorContext.useActorRef();
  const checking = CreditsPageActorContext.useSelector(selectCheckoutChecking);
  const result = CreditsPageActorContext.useSelector(selectCheckoutResult);
  if (checking) {
    return (
      <Alert color="blue" role="status">
        <Group gap="sm">
          <Loader size="xs" />
          <Text>{CREDITS_TEXTS.checkoutChecking}</Text>
        </Group>
      </Alert>
    );
  }
  if (!result) return null;
  const notice = NOTICES[result.outcome];
  return (
    <Alert
      color={notice.color}
      role="status"
      withCloseButton
      closeButtonLabel={CREDITS_TEXTS.dismiss}
      onClose={() => page.send({ type: 'checkout.dismiss' })}
    >
      <Text>{notice.text(result.credits)}</Text>
    </Alert>
  );
}
