/**
 * Value lists the admin forms offer. Copied from `shared/` as plain arrays so the admin
 * chunks do not pull zod in; the `Exact` checks fail the type check if a list drifts.
 */
import type { AttendeeSortKey, AttendeeStatus } from '../../shared/attendees';
import type { BookingStatus } from '../../shared/booking';
import type { OrderStatus, PaymentAttention, PaymentStatus } from '../../shared/payments';
import { ROLES, type Role } from '../../shared/users';
import { t } from '../i18n/i18n';

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

// The label lists below keep their shape (`LABELS[value]`) but each label is a getter: it reads the
// catalogue when drawn, in the reader's language, and follows a language switch (docs/decisions/027-languages.md).

export const BOOKING_STATUS_LABELS: Record<BookingStatus, string> = {
  get confirmed() {
    return t('admin.common.bookingStatus.confirmed');
  },
  get pending_approval() {
    return t('admin.common.bookingStatus.pendingApproval');
  },
  get pending_payment() {
    return t('admin.common.bookingStatus.pendingPayment');
  },
  get cancelled() {
    return t('admin.common.bookingStatus.cancelled');
  },
  get abandoned() {
    return t('admin.common.bookingStatus.abandoned');
  },
};

export const ORDER_STATUS_LABELS: Record<OrderStatus, string> = {
  get pending_payment() {
    return t('admin.common.orderStatus.pendingPayment');
  },
  get paid() {
    return t('admin.common.orderStatus.paid');
  },
  get refunded() {
    return t('admin.common.orderStatus.refunded');
  },
  get expired() {
    return t('admin.common.orderStatus.expired');
  },
  get cancelled() {
    return t('admin.common.orderStatus.cancelled');
  },
};

export const PAYMENT_STATUS_LABELS: Record<PaymentStatus, string> = {
  get open() {
    return t('admin.common.paymentStatus.open');
  },
  get paid() {
    return t('admin.common.paymentStatus.paid');
  },
  get cancelled() {
    return t('admin.common.paymentStatus.cancelled');
  },
  get expired() {
    return t('admin.common.paymentStatus.expired');
  },
  get refunding() {
    return t('admin.common.paymentStatus.refunding');
  },
  get refunded() {
    return t('admin.common.paymentStatus.refunded');
  },
};

/** Why a payment needs the admin's look (docs/api.md#payments): money that confirmed nothing, refunded. */
export const PAYMENT_ATTENTION_LABELS: Record<PaymentAttention, string> = {
  get amount_mismatch() {
    return t('admin.common.attention.amountMismatch');
  },
  get refunded_at_provider() {
    return t('admin.common.attention.refundedAtProvider');
  },
  get payment_failed() {
    return t('admin.common.attention.paymentFailed');
  },
  get hold_released() {
    return t('admin.common.attention.holdReleased');
  },
};

/** The admin's flag for a payment, when it has one. */
export const attentionLabel = (attention: string | null | undefined): string | null =>
  attention ? (PAYMENT_ATTENTION_LABELS[attention as PaymentAttention] ?? attention) : null;

/** A booking's `paymentStatus` (null: free, nothing to pay). */
export const BOOKING_PAYMENT_LABELS: Record<string, string> = {
  get pending() {
    return t('admin.common.bookingPayment.pending');
  },
  get paid() {
    return t('admin.common.bookingPayment.paid');
  },
  get refunded() {
    return t('admin.common.bookingPayment.refunded');
  },
  get on_site() {
    return t('admin.common.bookingPayment.onSite');
  },
};

export const ASSIGNMENT_LABELS: Record<AssignmentMode, string> = {
  get round_robin() {
    return t('admin.common.assignment.roundRobin');
  },
  get fixed() {
    return t('admin.common.assignment.fixed');
  },
  get collective() {
    return t('admin.common.assignment.collective');
  },
  get weighted() {
    return t('admin.common.assignment.weighted');
  },
  get priority() {
    return t('admin.common.assignment.priority');
  },
};

export const LOCATION_LABELS: Record<LocationMode, string> = {
  get in_person() {
    return t('admin.common.location.inPerson');
  },
  get virtual() {
    return t('admin.common.location.virtual');
  },
  get phone() {
    return t('admin.common.location.phone');
  },
  get custom() {
    return t('admin.common.location.custom');
  },
};

export const ROLE_LABELS: Record<Role, string> = {
  get administrator() {
    return t('admin.common.role.administrator');
  },
  get staff() {
    return t('admin.common.role.staff');
  },
  get host() {
    return t('admin.common.role.host');
  },
};

/** A role's name in the reader's language. */
export const roleLabel = (role: Role): string => ROLE_LABELS[role] ?? role;

/** An attendee's status in the reader's words (the stored '' reads as going). */
export function attendeeStatusLabel(status: string | null | undefined): string {
  if (status === 'waitlist') return t('admin.attendees.status.waitlist');
  if (status === 'cancelled') return t('admin.attendees.status.cancelled');
  if (!status || status === 'going') return t('admin.attendees.status.going');
  return status;
}
