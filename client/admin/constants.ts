/**
 * Value lists the admin forms offer. Copied from `shared/` as plain arrays so the admin
 * chunks do not pull zod in; the `Exact` checks fail the type check if a list drifts.
 */
import type { AttendeeSortKey, AttendeeStatus } from '../../shared/attendees';
import type { BookingStatus } from '../../shared/booking';
import type { OrderStatus, PaymentAttention, PaymentStatus } from '../../shared/payments';
import { ROLES, type Role } from '../../shared/users';

export { ROLES, type Role };

type Exact<List extends readonly string[], Union extends string> = [Exclude<Union, List[number]>] extends [never]
  ? [Exclude<List[number], Union>] extends [never]
    ? true
    : never
  : never;

export const ATTENDEE_STATUSES = ['going', 'waitlist', 'cancelled'] as const;
export const ATTENDEE_SORT_KEYS = ['id', 'displayName', 'email', 'status', 'quantity', 'createdUtc', 'updatedUtc'] as const;
export const BOOKING_STATUSES = ['confirmed', 'pending_approval', 'pending_payment', 'cancelled', 'abandoned'] as const;
export const ASSIGNMENT_MODES = ['fixed', 'round_robin', 'collective', 'weighted', 'priority'] as const;
export const LOCATION_MODES = ['in_person', 'virtual', 'phone', 'custom'] as const;
export const ORDER_STATUSES = ['pending_payment', 'paid', 'refunded', 'expired', 'cancelled'] as const;
export const PAYMENT_STATUSES = ['open', 'paid', 'cancelled', 'expired', 'refunding', 'refunded'] as const;

export type LocationMode = (typeof LOCATION_MODES)[number];
export type AssignmentMode = (typeof ASSIGNMENT_MODES)[number];

export const LISTS_MATCH_SHARED: [
  Exact<typeof ATTENDEE_STATUSES, AttendeeStatus>,
  Exact<typeof ATTENDEE_SORT_KEYS, AttendeeSortKey>,
  Exact<typeof BOOKING_STATUSES, BookingStatus>,
  Exact<typeof ORDER_STATUSES, OrderStatus>,
  Exact<typeof PAYMENT_STATUSES, PaymentStatus>,
] = [true, true, true, true, true];

export const BOOKING_STATUS_LABELS: Record<BookingStatus, string> = {
  confirmed: 'Confirmed',
  pending_approval: 'Awaiting approval',
  pending_payment: 'Awaiting payment',
  cancelled: 'Cancelled',
  abandoned: 'Abandoned (hold released)',
};

export const ORDER_STATUS_LABELS: Record<OrderStatus, string> = {
  pending_payment: 'Awaiting payment',
  paid: 'Paid',
  refunded: 'Refunded',
  expired: 'Expired (hold released)',
  cancelled: 'Cancelled',
};

export const PAYMENT_STATUS_LABELS: Record<PaymentStatus, string> = {
  open: 'Open',
  paid: 'Paid',
  cancelled: 'Cancelled by the visitor',
  expired: 'Expired',
  refunding: 'Refund under way',
  refunded: 'Refunded',
};

/** Why a payment needs the admin's look (docs/api.md#payments): money that confirmed nothing, refunded. */
export const PAYMENT_ATTENTION_LABELS: Record<PaymentAttention, string> = {
  amount_mismatch: 'Check: paid a different amount or currency (refunded)',
  refunded_at_provider: 'Check: refunded at the provider',
  payment_failed: 'Check: payment also reported failed (refunded)',
  hold_released: 'Check: paid after the hold was released (refunded)',
};

/** The admin's flag for a payment, when it has one. */
export const attentionLabel = (attention: string | null | undefined): string | null =>
  attention ? (PAYMENT_ATTENTION_LABELS[attention as PaymentAttention] ?? attention) : null;

/** A booking's `paymentStatus` (null: free, nothing to pay). */
export const BOOKING_PAYMENT_LABELS: Record<string, string> = {
  pending: 'Payment pending',
  paid: 'Paid',
  refunded: 'Refunded',
  on_site: 'Pay on site',
};

export const ASSIGNMENT_LABELS: Record<AssignmentMode, string> = {
  round_robin: 'Round robin (spread evenly)',
  fixed: 'Fixed (first host)',
  collective: 'Collective (all hosts attend)',
  weighted: 'Weighted',
  priority: 'Priority order',
};

export const LOCATION_LABELS: Record<LocationMode, string> = {
  in_person: 'In person',
  virtual: 'Video call',
  phone: 'Phone',
  custom: 'Custom',
};

export const ROLE_LABELS: Record<Role, string> = {
  administrator: 'Administrator',
  staff: 'Door staff',
  host: 'Host',
};
