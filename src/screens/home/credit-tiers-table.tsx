import { Table } from '@mantine/core';
import type { selectTierInformation } from '@/machines/app-config/app-config.selectors';

const CREDIT_KINDS = ['Video', 'Image', 'Audio'] as const;

/**
 * The home page's "Credits per generation" table (a tier per row, the credits of each kind of
 * result). Its own chunk: it sits far below the fold, and Mantine's Table brings ScrollArea and
 * floating-ui with it, which the first paint does not need.
 */
export function CreditTiersTable({ tiers }: { tiers: ReturnType<typeof selectTierInformation> }) {
  return (
    <Table.ScrollContainer minWidth={420}>
      <Table striped withTableBorder aria-labelledby="home-credits">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Tier</Table.Th>
            {CREDIT_KINDS.map((kind) => (
              <Table.Th scope="col" key={kind}>
                {kind}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {tiers.map((tier) => (
            <Table.Tr key={tier.id}>
              <Table.Th scope="row">{tier.label}</Table.Th>
              {CREDIT_KINDS.map((kind) => (
                <Table.Td key={kind}>{tier.credits[kind]}</Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
