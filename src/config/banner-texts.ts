/**
 * The top banner's account-level notices (SPEC §2.9 item 5, issue 17). Which events raise it is
 * listed in the README ("Top banner"); passing results of one action stay toasts.
 */
export const BANNER_TEXTS = {
  offline: 'You have been offline for over a minute. Kinora carries on once the connection is back.',
  backOnline: 'You are back online.',
} as const;
