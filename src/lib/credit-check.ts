/** The SPEC §6 rule moved to affordability.ts (one place); kept as an alias for the modules not moved yet. */
export { canAfford, type AffordabilityInput as CreditCheckInput, type CreditCheckUser } from '@/lib/affordability';
