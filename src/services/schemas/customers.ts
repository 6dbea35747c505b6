import { z } from 'zod';
import { CUSTOMER_NAME_MAX, TRANSFER_MAX_CREDITS } from '../../config/customers';

export const customerRoles = ['owner', 'member'] as const;

/** A business member (SPEC §6: keyed `b2b_members_{user id}`). */
export const customerMemberSchema = z.object({
  key: z.string(),
  id: z.string(),
  preferred_username: z.string().nullable(),
  /** Shown to the owner only (null for members). */
  email: z.string().nullable(),
  added_at: z.string(),
  /** Credits transferred to this member so far (owner's view; 0 for members). */
  credits_received: z.number().default(0),
});
export type CustomerMember = z.infer<typeof customerMemberSchema>;

export const customerTransferSchema = z.object({
  id: z.string(),
  member_id: z.string(),
  member_handle: z.string().nullable(),
  credits: z.number(),
  created_at: z.string(),
});
export type CustomerTransfer = z.infer<typeof customerTransferSchema>;

/** GET customers/{id}: an organisation as the caller may see it. */
export const customerSchema = z.object({
  id: z.string(),
  name: z.string(),
  role: z.enum(customerRoles),
  owner: z.object({ id: z.string(), preferred_username: z.string().nullable() }),
  /** The organisation's credits (null for members). */
  balance: z.number().nullable(),
  members: z.array(customerMemberSchema),
  /** The latest transfers (owner's view; empty for members). */
  transfers: z.array(customerTransferSchema).default([]),
  created_at: z.string(),
});
export type Customer = z.infer<typeof customerSchema>;

/** GET customers (Kinora's): the organisations the caller owns or belongs to. */
export const customerSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  role: z.enum(customerRoles),
  member_count: z.number(),
});
export const customerListSchema = z.object({ items: z.array(customerSummarySchema) });
export type CustomerSummary = z.infer<typeof customerSummarySchema>;
export type CustomerList = z.infer<typeof customerListSchema>;

/** POST customers (Kinora's): a new organisation owned by the caller. */
export const createCustomerRequestSchema = z.object({ name: z.string().trim().min(1).max(CUSTOMER_NAME_MAX) });
export type CreateCustomerRequest = z.infer<typeof createCustomerRequestSchema>;

/** POST customers/members: add a person by e-mail or handle. */
export const addMemberRequestSchema = z.object({
  customer_id: z.string().min(1),
  /** An e-mail address, or a handle with or without the leading @. */
  member: z.string().trim().min(1).max(254),
});
export type AddMemberRequest = z.infer<typeof addMemberRequestSchema>;

/** POST customers/credits/transfer (with an Idempotency-Key header). */
export const transferRequestSchema = z.object({
  customer_id: z.string().min(1),
  /** The member's user id or member key. */
  member_id: z.string().min(1),
  credits: z.number().int().min(1).max(TRANSFER_MAX_CREDITS),
});
export type TransferRequest = z.infer<typeof transferRequestSchema>;

export const transferResultSchema = z.object({ transfer: customerTransferSchema, customer: customerSchema });
export type TransferResult = z.infer<typeof transferResultSchema>;

/** POST customer/user/purchase: the owner buys a pack for the organisation's balance. */
export const customerPurchaseRequestSchema = z.object({ customer_id: z.string().min(1), pack_id: z.string().min(1) });
export type CustomerPurchaseRequest = z.infer<typeof customerPurchaseRequestSchema>;
