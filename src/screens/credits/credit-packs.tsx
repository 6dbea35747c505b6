import { Button, Card, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { CREDIT_PACKS, formatPrice } from '@/config/billing';
import { CREDITS_TEXTS } from '@/config/credits-texts';
import { selectBuyingPackId, selectIsLeaving } from '@/machines/credits-page/credits-page.selectors';
import { CreditsPageActorContext } from '@/screens/credits/credits-context';

/** The credit packs, each with a Buy button that opens the card provider's checkout. */
export function CreditPacks() {
  const page = CreditsPageActorContext.useActorRef();
  const buyingPackId = CreditsPageActorContext.useSelector(selectBuyingPackId);
  const leaving = CreditsPageActorContext.useSelector(selectIsLeaving);
  return (
    <Stack gap="sm" component="section" aria-labelledby="credits-packs-title">
      <Title order={2} id="credits-packs-title">
        {CREDITS_TEXTS.packsHeading}
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        {CREDIT_PACKS.map((pack) => {
          const price = formatPrice(pack.priceCents);
          return (
            <Card key={pack.id} withBorder radius="md" padding="lg">
              <Stack gap="xs">
                <Text fw={700}>{pack.label}</Text>
                <Text size="xl" fw={700}>
                  {CREDITS_TEXTS.packCredits(pack.credits)}
                </Text>
                <Text c="dimmed">{price}</Text>
                <Button
                  aria-label={CREDITS_TEXTS.buyLabel(pack.label, pack.credits, price)}
                  loading={buyingPackId === pack.id}
                  disabled={leaving && buyingPackId !== pack.id}
                  onClick={() => page.send({ type: 'pack.buy', packId: pack.id })}
                >
                  {CREDITS_TEXTS.buy}
                </Button>
              </Stack>
            </Card>
          );
        })}
      </SimpleGrid>
      <Text size="sm" c="dimmed">
        {CREDITS_TEXTS.checkoutNote}
      </Text>
    </Stack>
  );
}
