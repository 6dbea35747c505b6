import { CUSTOMER_NAME_MAX } from './customers';

/**
 * Kinora's own texts of the organisation pages (SPEC §1 b2b, §6 customer owner and business
 * members). SPEC gives none of them word for word; the purchase failure is MESSAGES.buyCreditsFailed.
 */

const credits = (count: number): string => `${count} ${count === 1 ? 'credit' : 'credits'}`;

export const ORGANISATION_TEXTS = {
  title: 'Organisation',
  intro: 'An organisation buys credits once and hands them to its members. Its owner adds people by e-mail or handle.',
  signIn: 'Sign in to see your organisations',
  retry: 'Try again',
  dismiss: 'Dismiss',

  list: {
    heading: 'Your organisations',
    loading: 'Loading your organisations…',
    failed: 'Your organisations could not be loaded.',
    empty: 'You are in no organisation yet. Create one below, or ask an owner to add you.',
    owner: 'Owner',
    member: 'Member',
    memberCount: (count: number): string => `${count} ${count === 1 ? 'member' : 'members'}`,
    open: (name: string): string => `Open ${name}`,
  },

  create: {
    heading: 'Create an organisation',
    name: 'Organisation name',
    nameRequired: 'Give the organisation a name.',
    nameTooLong: `Use at most ${CUSTOMER_NAME_MAX} characters.`,
    submit: 'Create organisation',
  },

  detail: {
    loading: 'Loading the organisation…',
    notFound: 'This organisation does not exist, or you are not in it.',
    loadFailed: 'The organisation could not be loaded.',
    allOrganisations: 'All organisations',
    ownedBy: (owner: string): string => `Owned by ${owner}`,
    you: 'you',
    unknownOwner: 'its owner',
    roleBadge: { owner: 'You own it', member: 'You are a member' },
    balanceLabel: 'Organisation balance',
    balance: (count: number): string => credits(count),
    memberNote: 'Credits come from the organisation’s owner: what they transfer to you lands in your own balance.',
  },

  buy: {
    heading: 'Buy credits for the organisation',
    hint: 'You pay on the card provider’s checkout page, then come back here.',
    pack: (label: string, count: number, price: string): string => `${label}: ${credits(count)} for ${price}`,
    buy: (label: string): string => `Buy ${label}`,
    leaving: 'Opening the checkout…',
  },

  checkout: {
    checking: 'Checking your payment…',
    paid: (count: number): string => `Payment received: ${credits(count)} were added to the organisation.`,
    cancelled: 'Payment cancelled: nothing was charged.',
    open: 'The payment is not finished yet. Open the checkout again to pay.',
    declined: 'The card was declined: nothing was charged.',
    expired: 'The checkout expired: nothing was charged.',
    failed: 'We could not check the payment. Your balance below is up to date.',
  },

  members: {
    heading: 'Members',
    empty: 'No members yet.',
    emptyOwner: 'No members yet. Add people by e-mail or handle below.',
    tableLabel: 'Members of the organisation',
    handle: 'Handle',
    email: 'E-mail',
    key: 'Member key',
    keyTooltip: 'Business member key',
    received: 'Credits received',
    actions: 'Actions',
    noHandle: 'No handle yet',
    remove: (name: string): string => `Remove ${name}`,
    removeTitle: 'Remove this member?',
    removeText: (name: string): string =>
      `${name} leaves the organisation. Credits already transferred stay in their own balance.`,
    removeConfirm: 'Remove',
    removeCancel: 'Keep',
    removed: (name: string): string => `${name} was removed.`,
    added: (name: string): string => `${name} was added.`,
  },

  addMember: {
    heading: 'Add a member',
    label: 'E-mail or @handle',
    description: 'The person needs a Kinora account.',
    required: 'Write an e-mail address or a handle.',
    invalid: 'Write an e-mail address (name@example.com) or a handle (@name).',
    submit: 'Add member',
  },

  transfer: {
    open: (name: string): string => `Transfer credits to ${name}`,
    heading: (name: string): string => `Transfer credits to ${name}`,
    credits: 'Credits',
    hint: (balance: number): string => `The organisation has ${credits(balance)}.`,
    tooFew: 'Transfer at least 1 credit.',
    tooMany: (balance: number): string => `The organisation has ${credits(balance)}; transfer at most that.`,
    whole: 'Transfer a whole number of credits.',
    submit: 'Transfer',
    cancel: 'Cancel',
    retry: 'Retry the transfer',
    done: (count: number, name: string): string => `${credits(count)} transferred to ${name}.`,
    noBalance: 'Buy credits for the organisation before transferring.',
  },

  transfers: {
    heading: 'Recent transfers',
    empty: 'No transfers yet.',
    tableLabel: 'Recent transfers',
    member: 'Member',
    credits: 'Credits',
    date: 'Date',
  },
} as const;
