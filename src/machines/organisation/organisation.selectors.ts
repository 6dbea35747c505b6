import type {
  Customer,
  CustomerMember,
  CustomerTransfer,
  OrganisationNotice,
  OrganisationSnapshot,
  TransferAttempt,
} from '@/machines/organisation/organisation.machine';

export type OrganisationStatus = 'checkingCheckout' | 'loading' | 'notFound' | 'failed' | 'ready';
export type OrganisationBusy = 'reloading' | 'adding' | 'removing' | 'transferring' | 'purchasing' | 'leaving' | null;

export function selectOrganisationStatus(snapshot: OrganisationSnapshot): OrganisationStatus {
  if (snapshot.matches('ready')) return 'ready';
  if (snapshot.matches('notFound')) return 'notFound';
  if (snapshot.matches('failed')) return 'failed';
  if (snapshot.matches('checkingCheckout')) return 'checkingCheckout';
  return 'loading';
}

/** Which change runs now (one at a time), or null. */
export function selectOrganisationBusy(snapshot: OrganisationSnapshot): OrganisationBusy {
  const busy = ['reloading', 'adding', 'removing', 'transferring', 'purchasing', 'leaving'] as const;
  return busy.find((state) => snapshot.matches({ ready: state })) ?? null;
}

export const selectCustomer = (snapshot: OrganisationSnapshot): Customer | null => snapshot.context.customer;
export const selectIsOwner = (snapshot: OrganisationSnapshot): boolean => snapshot.context.customer?.role === 'owner';
export const selectMembers = (snapshot: OrganisationSnapshot): CustomerMember[] => snapshot.context.customer?.members ?? [];
export const selectTransfers = (snapshot: OrganisationSnapshot): CustomerTransfer[] => snapshot.context.customer?.transfers ?? [];
export const selectBalance = (snapshot: OrganisationSnapshot): number | null => snapshot.context.customer?.balance ?? null;
export const selectLoadError = (snapshot: OrganisationSnapshot): string | null => snapshot.context.loadError;
export const selectNotice = (snapshot: OrganisationSnapshot): OrganisationNotice | null => snapshot.context.notice;
export const selectAddError = (snapshot: OrganisationSnapshot): string | null => snapshot.context.addError;
export const selectRemovingId = (snapshot: OrganisationSnapshot): string | null => snapshot.context.removingId;
export const selectTransferAttempt = (snapshot: OrganisationSnapshot): TransferAttempt | null => snapshot.context.transfer;
export const selectTransferError = (snapshot: OrganisationSnapshot): string | null => snapshot.context.transferError;
