import type { CustomerSummary, OrganisationsSnapshot } from '@/machines/organisation/organisations.machine';

export type OrganisationsStatus = 'loading' | 'ready' | 'failed';

export const selectOrganisations = (snapshot: OrganisationsSnapshot): CustomerSummary[] => snapshot.context.items;

export function selectOrganisationsStatus(snapshot: OrganisationsSnapshot): OrganisationsStatus {
  if (snapshot.matches('loading')) return 'loading';
  if (snapshot.matches('failed')) return 'failed';
  return 'ready';
}

export const selectOrganisationsError = (snapshot: OrganisationsSnapshot): string | null => snapshot.context.loadError;

export const selectCreating = (snapshot: OrganisationsSnapshot): boolean => snapshot.matches({ ready: 'creating' });

export const selectCreateError = (snapshot: OrganisationsSnapshot): string | null => snapshot.context.createError;
