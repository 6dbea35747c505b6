import { assign, emit, fromPromise, setup } from 'xstate';
import type { SnapshotFrom } from 'xstate';
import { errorMessageOf } from '@/services/api-error';
import { createCustomer, listCustomers } from '@/services/customers';
import type { CreateCustomerRequest, Customer, CustomerList, CustomerSummary } from '@/services/schemas/customers';

export type { CustomerSummary } from '@/services/schemas/customers';

export interface OrganisationsContext {
  /** The organisations the person owns or belongs to, as GET customers answers them. */
  items: CustomerSummary[];
  /** Why the list could not be loaded; null otherwise. */
  loadError: string | null;
  /** Why the last create failed (the server's detail); null otherwise. */
  createError: string | null;
}

export type OrganisationsEvent =
  | { type: 'organisations.refresh' }
  | { type: 'organisations.create'; name: string };

export type OrganisationsEmitted = { type: 'organisations.created'; id: string };

const summaryOf = (customer: Customer): CustomerSummary => ({
  id: customer.id,
  name: customer.name,
  role: customer.role,
  member_count: customer.members.length,
});

/**
 * "Your organisations" (/organisation): the list (GET customers: loading → ready | failed) and the
 * create form (POST customers); a created organisation joins the list and is announced, so the page
 * can open it.
 */
export const organisationsMachine = setup({
  types: {
    context: {} as OrganisationsContext,
    events: {} as OrganisationsEvent,
    emitted: {} as OrganisationsEmitted,
  },
  actors: {
    loadOrganisations: fromPromise<CustomerList>(() => listCustomers()),
    createOrganisation: fromPromise<Customer, CreateCustomerRequest>(({ input }) => createCustomer(input)),
  },
  actions: {
    storeList: assign((_, params: { list: CustomerList }) => ({ items: params.list.items, loadError: null })),
    setLoadError: assign((_, params: { message: string }) => ({ loadError: params.message })),
    clearCreateError: assign({ createError: null }),
    addCreated: assign(({ context }, params: { customer: Customer }) => ({
      items: [summaryOf(params.customer), ...context.items.filter((item) => item.id !== params.customer.id)],
      createError: null,
    })),
    announceCreated: emit((_, params: { id: string }) => ({ type: 'organisations.created' as const, id: params.id })),
    setCreateError: assign((_, params: { message: string }) => ({ createError: params.message })),
  },
}).createMachine({
  id: 'organisations',
  context: { items: [], loadError: null, createError: null },
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'loadOrganisations',
        onDone: { target: 'ready', actions: { type: 'storeList', params: ({ event }) => ({ list: event.output }) } },
        onError: { target: 'failed', actions: { type: 'setLoadError', params: ({ event }) => ({ message: errorMessageOf(event.error) }) } },
      },
    },
    failed: { on: { 'organisations.refresh': 'loading' } },
    ready: {
      initial: 'idle',
      on: { 'organisations.refresh': '.refreshing' },
      states: {
        idle: {
          on: { 'organisations.create': { target: 'creating', actions: 'clearCreateError' } },
        },
        refreshing: {
          invoke: {
            src: 'loadOrganisations',
            onDone: { target: 'idle', actions: { type: 'storeList', params: ({ event }) => ({ list: event.output }) } },
            onError: { target: 'idle', actions: { type: 'setLoadError', params: ({ event }) => ({ message: errorMessageOf(event.error) }) } },
          },
        },
        creating: {
          invoke: {
            src: 'createOrganisation',
            input: ({ event }) => ({ name: event.type === 'organisations.create' ? event.name.trim() : '' }),
            onDone: {
              target: 'idle',
              actions: [
                { type: 'addCreated', params: ({ event }) => ({ customer: event.output }) },
                { type: 'announceCreated', params: ({ event }) => ({ id: event.output.id }) },
              ],
            },
            onError: { target: 'idle', actions: { type: 'setCreateError', params: ({ event }) => ({ message: errorMessageOf(event.error) }) } },
          },
          // A refresh waits until the organisation exists.
          on: { 'organisations.refresh': {} },
        },
      },
    },
  },
});

export type OrganisationsSnapshot = SnapshotFrom<typeof organisationsMachine>;
