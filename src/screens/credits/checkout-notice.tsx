import { Alert, Group, Loader, Text } from '@mantine/core';
import { useEffect } from 'react';
import { BannerActorContext } from '@/components/banner/banner-context';
import { CREDITS_TEXTS } from '@/config/credits-texts';
import type { BannerKind } from '@/machines/banner/banner.machine';
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

/**
 * The outcomes that raise the top banner (SPEC §2.9 item 5, issue 17: a payment returned from the
 * checkout is an account-level event): paid as a success, a payment that did not go through as an
 * error. Cancelled (the person's own choice) and pending stay a notice on the page.
 */
const BANNER_KINDS: Partial<Record<CheckoutResult['outcome'], BannerKind>> = {
  paid: 'success',
  declined: 'error',
  expired: 'error',
  unknown: 'error',
};

/** What became of the checkout the person just came back from (nothing on an ordinary visit). */
export function CheckoutNotice() {
  const page = CreditsPageActorContext.useActorRef();
  const banner = BannerActorContext.useActorRef();
  const checking = CreditsPageActorContext.useSelector(selectCheckoutChecking);
  const result = CreditsPageActorContext.useSelector(selectCheckoutResult);
  const bannerKind = result ? BANNER_KINDS[result.outcome] : undefined;

  useEffect(() => {
    if (!result || !bannerKind) return;
    banner.send({ type: 'banner.show', kind: bannerKind, message: NOTICES[result.outcome].text(result.credits) });
  }, [banner, result, bannerKind]);

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
  if (!result || bannerKind) return null;
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
