/** Organisations (SPEC §1 b2b, §3 Customer, §6 customer owner and business members). */

/** SPEC §6: a business member's key starts with this, followed by the member's user id (sub). */
export const B2B_MEMBER_KEY_PREFIX = 'b2b_members_';
export const memberKey = (userSub: string): string => `${B2B_MEMBER_KEY_PREFIX}${userSub}`;
/** The user id in a member key, or the value itself when it is a bare user id. */
export const memberSubOf = (memberId: string): string =>
  memberId.startsWith(B2B_MEMBER_KEY_PREFIX) ? memberId.slice(B2B_MEMBER_KEY_PREFIX.length) : memberId;

export const CUSTOMER_NAME_MAX = 80;
export const CUSTOMER_MEMBERS_MAX = 200;
/** Most credits one transfer moves. */
export const TRANSFER_MAX_CREDITS = 100_000;
