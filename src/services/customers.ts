import { checkoutSchema } from '@/services/schemas/payments';
import type { Checkout } from '@/services/schemas/payments';
import { customerListSchema, customerSchema, transferResultSchema } from '@/services/schemas/customers';
import type {
  AddMemberRequest,
  CreateCustomerRequest,
  Customer,
  CustomerList,
  CustomerPurchaseRequest,
  TransferRequest,
  TransferResult,
} from '@/services/schemas/customers';
import { apiDelete, apiGet, apiPostJson } from '@/services/http';

/** GET customers (Kinora's): the organisations the signed-in person owns or belongs to. */
export const listCustomers = (): Promise<CustomerList> => apiGet('customers', customerListSchema);

/** POST customers (Kinora's): a new organisation owned by the signed-in person. */
export const createCustomer = (body: CreateCustomerRequest): Promise<Customer> =>
  apiPostJson('customers', body, customerSchema);

/** GET customers/{id}. */
export const getCustomer = (id: string): Promise<Customer> =>
  apiGet(`customers/${encodeURIComponent(id)}`, customerSchema);

/** POST customers/members: the owner adds a person by e-mail or handle. */
export const addCustomerMember = (body: AddMemberRequest): Promise<Customer> =>
  apiPostJson('customers/members', body, customerSchema);

/** DELETE customers/{customerId}/members/{memberId}: the owner removes a member. */
export const removeCustomerMember = (customerId: string, memberId: string): Promise<Customer> =>
  apiDelete(`customers/${encodeURIComponent(customerId)}/members/${encodeURIComponent(memberId)}`, customerSchema);

/**
 * POST customers/credits/transfer: moves credits from the organisation to a member. The key makes
 * a retried transfer (same key, same body) answer the first result instead of moving credits twice.
 */
export const transferCredits = (body: TransferRequest, idempotencyKey: string): Promise<TransferResult> =>
  apiPostJson('customers/credits/transfer', body, transferResultSchema, { idempotencyKey });

/** POST customer/user/purchase: the owner buys a pack for the organisation's balance (a checkout, as credits/purchase). */
export const purchaseCustomerCredits = (body: CustomerPurchaseRequest): Promise<Checkout> =>
  apiPostJson('customer/user/purchase', body, checkoutSchema);
