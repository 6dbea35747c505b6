/** The SPEC §6 rule moved to affordability.ts (one place); kept as an alias for the modules not moved yet. */
export { canAfford, type CreditCheckUser } from '@/lib/affordability';
