import type { selectTierInformation } from '@/machines/app-config/app-config.selectors';
import classes from '@/screens/home/credit-tiers-table.module.css';

const CREDIT_KINDS = ['Video', 'Image', 'Audio'] as const;

/**
 * The home page's "Credits per generation" table (a tier per row, the credits of each kind of
 * result). A plain table (see the CSS module for why),
 * scrolled sideways natively on a narrow screen (focusable, so the keyboard can scroll it too).
 */
export function CreditTiersTable({ tiers }: { tiers: ReturnType<typeof selectTierInformation> }) {
  return (
    <div className={classes.scroll} tabIndex={0}>
      <table aria-labelledby="home-credits" className={classes.table}>
        <thead>
          <tr>
            <th scope="col">Tier</th>
            {CREDIT_KINDS.map((kind) => (
              <th scope="col" key={kind}>
                {kind}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {tiers.map((tier) => (
            <tr key={tier.id}>
              <th scope="row">{tier.label}</th>
              {CREDIT_KINDS.map((kind) => (
                <td key={kind}>{tier.credits[kind]}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
