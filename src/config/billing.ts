/**
 * Kinora's credit packs, auto-refill options and the local card provider's test cards. SPEC §1/§7
 * name the calls (credits/purchase/{id}, credits/auto-refill/{option}) but not the packs or options;
 * these are Kinora's. Shared by the web app and the local API server.
 */

export interface CreditPack {
  /** What `credits/purchase/{id}` takes. */
  id: string;
  label: string;
  credits: number;
  /** Price in the smallest unit of CURRENCY (cents). */
  priceCents: number;
}

export const CURRENCY = 'USD';

export const CREDIT_PACKS: readonly CreditPack[] = [
  { id: 'pack-100', label: 'Starter', credits: 100, priceCents: 1000 },
  { id: 'pack-500', label: 'Creator', credits: 500, priceCents: 4500 },
  { id: 'pack-2000', label: 'Studio', credits: 2000, priceCents: 16000 },
];

export const findCreditPack = (id: string): CreditPack | undefined => CREDIT_PACKS.find((pack) => pack.id === id);

export interface AutoRefillOption {
  /** What `credits/auto-refill/{option}` takes. */
  value: string;
  label: string;
  /** A debit that leaves the balance below this buys `packId` (null for "off"). */
  threshold: number | null;
  packId: string | null;
}

export const AUTO_REFILL_OFF = 'off';

export const AUTO_REFILL_OPTIONS: readonly AutoRefillOption[] = [
  { value: AUTO_REFILL_OFF, label: 'Off', threshold: null, packId: null },
  { value: 'below-20-buy-100', label: 'Under 20 credits, buy 100 ($10.00)', threshold: 20, packId: 'pack-100' },
  { value: 'below-50-buy-500', label: 'Under 50 credits, buy 500 ($45.00)', threshold: 50, packId: 'pack-500' },
  { value: 'below-200-buy-2000', label: 'Under 200 credits, buy 2000 ($160.00)', threshold: 200, packId: 'pack-2000' },
];

export const findAutoRefillOption = (value: string): AutoRefillOption | undefined =>
  AUTO_REFILL_OPTIONS.find((option) => option.value === value);

/** The local checkout page's cards: one that pays, one that is declined (as the card provider's test mode). */
export const TEST_CARDS = {
  success: '4242 4242 4242 4242',
  decline: '4000 0000 0000 0002',
} as const;

/** Rows per page of `credits/history` (SPEC §9 names 20 among its numbers). */
export const CREDIT_HISTORY_PAGE_SIZE = 20;

/** "$10.00" for 1000 cents. */
export const formatPrice = (cents: number, currency: string = CURRENCY): string =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(cents / 100);
