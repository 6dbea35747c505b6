import { NumberInput, Stack, Table, Text, Title } from '@mantine/core';
import { AppConfigActorContext } from '@/components/app-config/app-config-context';
import { CREDITS_TEXTS } from '@/config/credits-texts';
import { selectTierInformation } from '@/machines/app-config/app-config.selectors';
import {
  comparisonCredits,
  costComparison,
  selectComparisonInput,
} from '@/machines/credits-page/credits-page.selectors';
import { CreditsPageActorContext } from '@/screens/credits/credits-context';

const count = (value: number | null): string => (value === null ? CREDITS_TEXTS.notPriced : String(value));

/**
 * SPEC §3 "a cost comparison uses a credit number that defaults to 0": a number (the balance
 * until the person types one) and, per tier of the app configuration, what it buys.
 */
export function CostComparison({ balance }: { balance: number | null }) {
  const page = CreditsPageActorContext.useActorRef();
  const tiers = AppConfigActorContext.useSelector(selectTierInformation);
  const input = CreditsPageActorContext.useSelector(selectComparisonInput);
  const credits = comparisonCredits(input, balance);
  const rows = costComparison(tiers, credits);
  const { tier, video, image, audio } = CREDITS_TEXTS.comparisonColumns;
  return (
    <Stack gap="sm" component="section" aria-labelledby="credits-comparison-title">
      <Title order={2} id="credits-comparison-title">
        {CREDITS_TEXTS.comparisonHeading}
      </Title>
      <Text c="dimmed">{CREDITS_TEXTS.comparisonIntro}</Text>
      <NumberInput
        label={CREDITS_TEXTS.comparisonInput}
        value={input ?? credits}
        min={0}
        allowDecimal={false}
        allowNegative={false}
        maw={200}
        onChange={(value) => page.send({ type: 'comparison.set', credits: String(value) })}
      />
      <Table.ScrollContainer minWidth={420}>
        <Table striped aria-labelledby="credits-comparison-title">
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{tier}</Table.Th>
              <Table.Th scope="col">{video}</Table.Th>
              <Table.Th scope="col">{image}</Table.Th>
              <Table.Th scope="col">{audio}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row) => (
              <Table.Tr key={row.id}>
                <Table.Th scope="row">{row.label}</Table.Th>
                <Table.Td>{count(row.video)}</Table.Td>
                <Table.Td>{count(row.image)}</Table.Td>
                <Table.Td>{count(row.audio)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}
