/** Promo codes and vouchers of an event (docs/api.md#tickets): schemas shared by the server and the admin app. */
import { FULL_BP, VOUCHER_KINDS } from './pricing';
import { ZPositiveId, ZUtcDateTime } from './schemas';
import { z } from './validation';

/** The most cents a fixed or set-price voucher may name (a million in the currency's main unit). */
export const MAX_VOUCHER_CENTS = 100_000_000;
/** The most ticket categories one voucher may list. */
export const MAX_VOUCHER_CATEGORIES = 200;

/** Letters, digits, `-`, `_` and `.`: a code a person can type from a flyer. Matched without regard to case. */
export const ZVoucherCode = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9._-]+$/, 'may hold only letters, digits, "-", "_" and "."');

/** The code as it is matched: upper case (the unique index is on it per event). */
export function voucherCodeKey(code: string): string {
  return code.trim().toUpperCase();
}

const ZLimit = z.number().int().min(1).max(1_000_000).nullable();

const voucherFields = {
  code: ZVoucherCode,
  kind: z.enum(VOUCHER_KINDS),
  /** percent: basis points (2000 = 20 %, at most 10000); fixed: cents off each ticket; set_price: each ticket's price in cents. */
  value: z.number().int().min(0).max(MAX_VOUCHER_CENTS),
  /** The categories it applies to; null = every category of the event. */
  categoryIds: z.array(ZPositiveId).min(1).max(MAX_VOUCHER_CATEGORIES).nullable(),
  /** Tickets it may discount in all; null = no limit. */
  maxUses: ZLimit,
  /** Tickets one email may take with it; null = no limit. */
  maxUsesPerEmail: ZLimit,
  validFromUtc: ZUtcDateTime.nullable(),
  validUntilUtc: ZUtcDateTime.nullable(),
  /** Whether it opens the hidden categories it applies to. */
  unlocksHidden: z.boolean(),
};

/** POST /events/{id}/vouchers body. */
export const ZVoucherInput = z.object({
  ...voucherFields,
  categoryIds: voucherFields.categoryIds.default(null),
  maxUses: voucherFields.maxUses.default(null),
  maxUsesPerEmail: voucherFields.maxUsesPerEmail.default(null),
  validFromUtc: voucherFields.validFromUtc.default(null),
  validUntilUtc: voucherFields.validUntilUtc.default(null),
  unlocksHidden: voucherFields.unlocksHidden.default(false),
});
export type VoucherInput = z.infer<typeof ZVoucherInput>;

/** PATCH /vouchers/{id} body: any of the fields. */
export const ZVoucherPatch = z.object(voucherFields).partial();
export type VoucherPatch = z.infer<typeof ZVoucherPatch>;

export const ZVoucherDto = z.object({
  id: z.number().int(),
  eventId: z.number().int(),
  code: z.string(),
  kind: z.enum(VOUCHER_KINDS),
  value: z.number().int(),
  categoryIds: z.array(z.number().int()).nullable(),
  maxUses: z.number().int().nullable(),
  maxUsesPerEmail: z.number().int().nullable(),
  validFromUtc: z.string().nullable(),
  validUntilUtc: z.string().nullable(),
  unlocksHidden: z.boolean(),
  /** Tickets discounted by orders that still hold it (a cancelled or expired order gives its uses back). */
  usedCount: z.number().int(),
  createdUtc: z.string(),
  updatedUtc: z.string(),
});
export type VoucherDto = z.infer<typeof ZVoucherDto>;

/**
 * Why a voucher's terms do not hold together, by field, or null: a percentage above 100 %, a
 * window that ends before it starts. The schema checks each field alone; this checks them together.
 */
export function voucherTermsFaults(terms: Pick<VoucherInput, 'kind' | 'value' | 'validFromUtc' | 'validUntilUtc'>): Record<string, string> | null {
  const faults: Record<string, string> = {};
  if (terms.kind === 'percent' && terms.value > FULL_BP) faults.value = `must be at most ${FULL_BP} basis points (100 %) for a percentage`;
  if (terms.kind !== 'set_price' && terms.value === 0) faults.value = 'must be more than 0 (a voucher that takes nothing off does nothing)';
  if (terms.validFromUtc !== null && terms.validUntilUtc !== null && terms.validUntilUtc <= terms.validFromUtc)
    faults.validUntilUtc = 'must be after validFromUtc';
  return Object.keys(faults).length > 0 ? faults : null;
}
