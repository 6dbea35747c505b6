import { Alert, Button, Group, Radio, Skeleton, Stack, Text, Title } from '@mantine/core';
import { AUTO_REFILL_OFF, AUTO_REFILL_OPTIONS } from '@/config/billing';
import { CREDITS_TEXTS } from '@/config/credits-texts';
import {
  selectAccount,
  selectAccountStatus,
  selectAutoRefillValue,
  selectHasSavedCard,
} from '@/machines/credits-page/credits-page.selectors';
import { CreditsPageActorContext } from '@/screens/credits/credits-context';

/**
 * Auto-refill: one radio per option, saved as soon as one is chosen. Without a saved card only
 * "Off" can be chosen, and the section says how to get a card saved.
 */
export function AutoRefillSection() {
  const page = CreditsPageActorContext.useActorRef();
  const status = CreditsPageActorContext.useSelector(selectAccountStatus);
  const account = CreditsPageActorContext.useSelector(selectAccount);
  const value = CreditsPageActorContext.useSelector(selectAutoRefillValue);
  const hasCard = CreditsPageActorContext.useSelector(selectHasSavedCard);
  const saving = status === 'saving';

  return (
    <Stack gap="sm" component="section" aria-labelledby="credits-auto-refill-title">
      <Title order={2} id="credits-auto-refill-title">
        {CREDITS_TEXTS.autoRefillHeading}
      </Title>
      <Text c="dimmed">{CREDITS_TEXTS.autoRefillIntro}</Text>
      {status === 'loading' && (
        <Stack gap="xs" role="status" aria-label={CREDITS_TEXTS.accountLoading}>
          <Skeleton height={20} width="60%" />
          <Skeleton height={20} width="50%" />
        </Stack>
      )}
      {status === 'failed' && (
        <Alert color="red" role="alert">
          <Group justify="space-between">
            <Text>{CREDITS_TEXTS.accountFailed}</Text>
            <Button variant="default" size="xs" onClick={() => page.send({ type: 'account.retry' })}>
              {CREDITS_TEXTS.retry}
            </Button>
          </Group>
        </Alert>
      )}
      {account && (status === 'ready' || saving) && (
        <>
          <Text>{account.card ? CREDITS_TEXTS.savedCard(account.card.brand, account.card.last4) : CREDITS_TEXTS.noCard}</Text>
          <Radio.Group
            label={CREDITS_TEXTS.autoRefillLabel}
            value={value}
            onChange={(option) => page.send({ type: 'autoRefill.set', option })}
          >
            <Stack gap="xs" mt="xs">
              {AUTO_REFILL_OPTIONS.map((option) => (
                <Radio
                  key={option.value}
                  value={option.value}
                  label={option.label}
                  disabled={saving || (option.value !== AUTO_REFILL_OFF && !hasCard)}
                />
              ))}
            </Stack>
          </Radio.Group>
          {saving && (
            <Text size="sm" c="dimmed" role="status">
              {CREDITS_TEXTS.autoRefillSaving}
            </Text>
          )}
        </>
      )}
    </Stack>
  );
}
