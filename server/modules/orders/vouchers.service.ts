/**
 * Promo codes and vouchers (docs/api.md#tickets): the administrators' list and editor, and the
 * redemption the sign-up runs inside its own transaction.
 *
 * Redemption is decided under the event's sign-up lock (the event row, `eventsRepository(tx).lockById`,
 * taken by the sign-up before it calls `redeemVoucher`): the per-email count is read and the
 * redemption written by one sign-up at a time. The total limit does not even need that lock: the
 * count is raised by one guarded UPDATE (`used_count + n <= max_uses`), which the voucher row's own
 * lock serialises, so a code is never redeemed past its limit however the callers interleave.
 */
import { AppError, ERROR_CODES, type KnownErrorCode } from '../../../shared/errors';
import { voucherAppliesTo, type PricingLine, type VoucherTerms } from '../../../shared/pricing';
import { toUtcString } from '../../../shared/time';
import { voucherCodeKey, voucherTermsFaults, type VoucherDto, type VoucherInput, type VoucherPatch } from '../../../shared/vouchers';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { vouchersRepository, type VoucherRow, type VouchersRepository } from './vouchers.repository';

export function toVoucherDto(row: VoucherRow): VoucherDto {
  return {
    id: row.id,
    eventId: row.eventId,
    code: row.code,
    kind: row.kind,
    value: row.value,
    categoryIds: row.categoryIds ?? null,
    maxUses: row.maxUses,
    maxUsesPerEmail: row.maxUsesPerEmail,
    validFromUtc: row.validFromUtc,
    validUntilUtc: row.validUntilUtc,
    unlocksHidden: row.unlocksHidden,
    usedCount: row.usedCount,
    createdUtc: row.createdUtc,
    updatedUtc: row.updatedUtc,
  };
}

/** The terms `priceOrder` and `visibleCategories` read (shared/pricing.ts). */
export function voucherTermsOf(row: VoucherRow): VoucherTerms & { unlocksHidden: boolean } {
  return { kind: row.kind, value: row.value, categoryIds: row.categoryIds ?? null, unlocksHidden: row.unlocksHidden };
}

function invalid(params: Record<string, string>): AppError {
  return new AppError('svc_invalid_param', `Invalid parameter(s): ${Object.keys(params).join(', ')}`, { params });
}

/** 23505 unique_violation, from the driver error under Drizzle's. */
function isUniqueViolation(err: unknown): boolean {
  for (let e: unknown = err; e; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
}

const codeTaken = (code: string, cause?: unknown) =>
  new AppError('svc_voucher_code_taken', `This event already has a voucher with the code ${code.toUpperCase()}.`, { params: { code: 'is taken' } }, { cause });

export function vouchersService(ctx: Pick<AppContext, 'db'>, repo: VouchersRepository = vouchersRepository) {
  const { db } = ctx;

  /** Every listed category must belong to the voucher's event; the unknown ones are named. */
  async function assertCategoriesOfEvent(tx: Db, eventId: number, ids: number[] | null): Promise<void> {
    if (ids === null) return;
    const unique = [...new Set(ids)];
    const known = new Set(await repo.categoryIdsOfEvent(tx, eventId, unique));
    const unknown = unique.filter((id) => !known.has(id));
    if (unknown.length > 0)
      throw invalid({ categoryIds: `${unknown.join(', ')} ${unknown.length === 1 ? 'is not a ticket category' : 'are not ticket categories'} of this event` });
  }

  async function get(id: number): Promise<VoucherDto> {
    const row = await repo.find(db, id);
    if (!row) throw new AppError('svc_not_found', 'No such voucher.');
    return toVoucherDto(row);
  }

  return {
    get,

    async list(eventId: number, opts: { page: number; perPage: number }): Promise<{ items: VoucherDto[]; total: number }> {
      if (!(await repo.eventExists(db, eventId))) throw new AppError('svc_not_found', 'No such event.');
      const { items, total } = await repo.list(db, eventId, opts);
      return { items: items.map(toVoucherDto), total };
    },

    async create(eventId: number, input: VoucherInput): Promise<VoucherDto> {
      const faults = voucherTermsFaults(input);
      if (faults) throw invalid(faults);
      if (!(await repo.eventExists(db, eventId))) throw new AppError('svc_not_found', 'No such event.');
      await assertCategoriesOfEvent(db, eventId, input.categoryIds);
      const codeKey = voucherCodeKey(input.code);
      if (await repo.codeTaken(db, eventId, codeKey)) throw codeTaken(input.code);
      try {
        const row = await repo.insert(db, {
          ...input,
          eventId,
          code: input.code,
          codeKey,
          categoryIds: input.categoryIds === null ? null : [...new Set(input.categoryIds)],
        });
        return toVoucherDto(row);
      } catch (err) {
        // two creations of one code at once: the unique index decides
        if (isUniqueViolation(err)) throw codeTaken(input.code, err);
        throw err;
      }
    },

    /**
     * A lower limit than the tickets already discounted is refused (naming `maxUses`): the uses
     * were sold, and the count must stay the truth. The row is locked against redemptions meanwhile.
     */
    async update(id: number, patch: VoucherPatch): Promise<VoucherDto> {
      try {
        const row = await db.transaction(async (tx) => {
          const current = await repo.lockOne(tx, id);
          if (!current) throw new AppError('svc_not_found', 'No such voucher.');
          const next = { ...toVoucherDto(current), ...patch };
          const faults = voucherTermsFaults(next);
          if (faults) throw invalid(faults);
          if (next.maxUses !== null && next.maxUses < current.usedCount)
            throw invalid({ maxUses: `must be at least ${current.usedCount}, the tickets already discounted with this code` });
          if (patch.categoryIds !== undefined) await assertCategoriesOfEvent(tx, current.eventId, patch.categoryIds);
          const changes: Partial<VoucherRow> = { ...patch };
          if (patch.code !== undefined) {
            const codeKey = voucherCodeKey(patch.code);
            if (await repo.codeTaken(tx, current.eventId, codeKey, id)) throw codeTaken(patch.code);
            changes.codeKey = codeKey;
          }
          if (patch.categoryIds) changes.categoryIds = [...new Set(patch.categoryIds)];
          if (Object.keys(changes).length === 0) return current;
          return (await repo.update(tx, id, changes))!;
        });
        return toVoucherDto(row);
      } catch (err) {
        if (isUniqueViolation(err)) throw codeTaken(patch.code ?? '', err);
        throw err;
      }
    },

    /**
     * Refused (409 `svc_conflict`) while orders hold uses of it: their discount was given under its
     * terms. Ending its validity stops new uses instead.
     */
    async remove(id: number): Promise<void> {
      await db.transaction(async (tx) => {
        const row = await repo.lockOne(tx, id);
        if (!row) throw new AppError('svc_not_found', 'No such voucher.');
        if (row.usedCount > 0)
          throw new AppError('svc_conflict', `This code has discounted ${row.usedCount} ticket(s); set validUntilUtc to stop it instead.`, {
            params: { id: 'has been redeemed' },
            usedCount: row.usedCount,
          });
        await repo.delete(tx, id);
      });
    },
  };
}

export type VouchersService = ReturnType<typeof vouchersService>;

export interface RedeemVoucherInput {
  eventId: number;
  /** As the buyer typed it; matched without regard to case. */
  code: string;
  email: string;
  /** The order's tickets: the voucher discounts those of the categories it applies to. */
  lines: readonly PricingLine[];
  /** The moment the validity window is checked against (UTC `Y-m-d H:i:s`); now when left out. */
  atUtc?: string;
  /** The code's row (null: no such code) when the caller read it already, behind the lock; read here when left out. */
  found?: VoucherRow | null;
  /** The order or free sign-up it belongs to, when already known (else `attachRedemption` later). */
  orderId?: number | null;
  attendeeId?: number | null;
}

export interface VoucherRedemption {
  redemptionId: number;
  voucherId: number;
  /** The code as the organizer wrote it, for the order's `voucher_code`. */
  code: string;
  terms: VoucherTerms & { unlocksHidden: boolean };
  /** Tickets discounted: the uses taken. */
  quantity: number;
  /** The buyer's email as the per-email limit counts it. */
  email: string;
}

function refuseVoucher(code: KnownErrorCode, message?: string, data?: Record<string, unknown>): AppError {
  const said = message ?? ERROR_CODES[code].message;
  return new AppError(code, said, { params: { voucher: said }, ...data });
}

/**
 * The first three checks of a redemption, which take no use: the code is the event's, now is
 * inside its window, and it applies to some of the lines (the seats it would discount).
 */
export async function applicableVoucher(
  tx: Db,
  input: Pick<RedeemVoucherInput, 'eventId' | 'code' | 'lines' | 'atUtc' | 'found'>,
  repo: VouchersRepository = vouchersRepository,
) {
  const voucher = input.found !== undefined ? input.found : await repo.findByCode(tx, input.eventId, voucherCodeKey(input.code));
  if (!voucher) throw refuseVoucher('svc_voucher_unknown');
  const at = input.atUtc ?? toUtcString(Date.now());
  if ((voucher.validFromUtc !== null && at < voucher.validFromUtc) || (voucher.validUntilUtc !== null && at >= voucher.validUntilUtc)) {
    throw refuseVoucher('svc_voucher_expired');
  }
  const terms = voucherTermsOf(voucher);
  const quantity = input.lines.reduce((sum, line) => sum + (voucherAppliesTo(terms, line.categoryId) ? line.quantity : 0), 0);
  if (quantity === 0) throw refuseVoucher('svc_voucher_not_applicable');
  return { voucher, terms, quantity };
}

/**
 * A code given with a sign-up whose tickets all join the waitlist: it takes no use (a waitlisted
 * ticket pays nothing now), but a code that is not the event's, out of its window or for none of
 * the tickets is refused as a redemption would refuse it, so the visitor learns it was wrong.
 */
export async function checkVoucher(
  tx: Db,
  input: Pick<RedeemVoucherInput, 'eventId' | 'code' | 'lines' | 'atUtc' | 'found'>,
  repo: VouchersRepository = vouchersRepository,
): Promise<void> {
  await applicableVoucher(tx, input, repo);
}

/**
 * Redeems a code for an order, inside the sign-up's transaction `tx` and after it took the event's
 * lock (see the header). Checks, in order: the code is the event's (`svc_voucher_unknown`), now is
 * inside its window (`svc_voucher_expired`), it applies to some of the tickets
 * (`svc_voucher_not_applicable`), the buyer's email stays within its per-email limit
 * (`svc_voucher_email_limit`) and the total limit holds (`svc_voucher_used_up`, with
 * `data.remaining`). Each refusal names `voucher` in `data.params`; nothing is written then, and
 * the sign-up's transaction rolls back whatever it wrote before.
 */
export async function redeemVoucher(tx: Db, input: RedeemVoucherInput, repo: VouchersRepository = vouchersRepository): Promise<VoucherRedemption> {
  const { voucher, terms, quantity } = await applicableVoucher(tx, input, repo);
  const email = input.email.trim().toLowerCase();
  if (voucher.maxUsesPerEmail !== null) {
    const held = await repo.usesByEmail(tx, voucher.id, email);
    if (held + quantity > voucher.maxUsesPerEmail)
      throw refuseVoucher('svc_voucher_email_limit', undefined, { remaining: Math.max(0, voucher.maxUsesPerEmail - held) });
  }
  const taken = await repo.takeUses(tx, voucher.id, quantity);
  if (!taken) {
    // re-read after the guarded update: the count it lost to is the one to report
    const now = await repo.find(tx, voucher.id);
    const remaining = Math.max(0, (now?.maxUses ?? 0) - (now?.usedCount ?? 0));
    throw refuseVoucher('svc_voucher_used_up', remaining > 0 ? `This code can discount only ${remaining} more ticket(s).` : undefined, { remaining });
  }
  const redemption = await repo.insertRedemption(tx, {
    voucherId: voucher.id,
    email,
    quantity,
    orderId: input.orderId ?? null,
    attendeeId: input.attendeeId ?? null,
  });
  return { redemptionId: redemption.id, voucherId: voucher.id, code: voucher.code, terms, quantity, email };
}

/** Ties a redemption made before its order or first attendee row existed to it (same transaction). */
export async function attachRedemption(
  tx: Db,
  redemptionId: number,
  owner: { orderId: number } | { attendeeId: number },
  repo: VouchersRepository = vouchersRepository,
): Promise<void> {
  if (!(await repo.linkRedemption(tx, redemptionId, owner))) throw new AppError('svc_internal', `Voucher redemption ${redemptionId} is gone.`);
}

/**
 * Ties a free sign-up's redemption to its ticket rows, one redemption per row the code discounted
 * (its seats as uses): each row's mail, ticket and door then know their own price, and cancelling
 * one row gives back only its uses. Same transaction as the sign-up.
 */
export async function attachRedemptionToTickets(
  tx: Db,
  redemption: VoucherRedemption,
  rows: ReadonlyArray<{ id: number; quantity: number; ticketCategoryId: number | null; status: string }>,
  repo: VouchersRepository = vouchersRepository,
): Promise<void> {
  const discounted = rows.filter((r) => r.status === 'going' && r.ticketCategoryId !== null && voucherAppliesTo(redemption.terms, r.ticketCategoryId));
  const seats = discounted.reduce((n, r) => n + r.quantity, 0);
  if (discounted.length === 0 || seats !== redemption.quantity)
    throw new AppError('svc_internal', `Voucher redemption ${redemption.redemptionId} does not match its tickets.`);
  const [first, ...others] = discounted;
  if (!(await repo.linkRedemption(tx, redemption.redemptionId, { attendeeId: first!.id, quantity: first!.quantity })))
    throw new AppError('svc_internal', `Voucher redemption ${redemption.redemptionId} is gone.`);
  for (const row of others) {
    await repo.insertRedemption(tx, { voucherId: redemption.voucherId, email: redemption.email, quantity: row.quantity, attendeeId: row.id });
  }
}

/**
 * Gives an order's (or a free sign-up's) uses back when it is cancelled or expires, in the
 * transaction that changes its status. Once only: a redemption given back is marked so, and a
 * second call finds nothing. Returns the tickets given back.
 */
export async function releaseVoucher(
  tx: Db,
  owner: { orderId: number } | { attendeeId: number },
  repo: VouchersRepository = vouchersRepository,
): Promise<number> {
  const released = await repo.releaseRedemptions(tx, owner);
  let given = 0;
  for (const r of released) {
    await repo.giveBackUses(tx, r.voucherId, r.quantity);
    given += r.quantity;
  }
  return given;
}
