/**
 * Every hook of the contract's Events section, in one map: an action maps to its
 * argument tuple, a filter to `{args, returns}` where `args[0]` is the filtered value.
 * Argument order and labels follow the contract's signatures.
 */
import type { AppError } from '../../shared/errors';
import type {
  AssignmentStrategy,
  AttendeeChanges,
  AttendeeRow,
  BookingReadBackFailed,
  BookingRowStrings,
  BookingTypeConfig,
  LocationLabels,
  RawCustomFieldInput,
  RedactedBookingRow,
  RsvpSubmittedPayload,
  Slot,
} from './types';

type CheckedInArgs = [checkinId: number, attendeeId: number, eventId: number];

export interface HookCatalogue {
  // Actions: attendees
  svc_rsvp_submitted: [attendeeId: number, data: RsvpSubmittedPayload];
  svc_attendee_status_changed: [attendeeId: number, newStatus: string, oldStatus: string];
  svc_attendee_updated: [attendeeId: number, changes: AttendeeChanges];
  svc_attendee_deleted: [attendeeId: number];
  svc_rsvp_cancelled: [attendeeId: number];
  svc_pro_attendee_checked_in: CheckedInArgs;
  /** The extended edition's mailing bridge re-emits every check-in under this name. */
  svc_mp_checked_in: CheckedInArgs;
  /** svc's own (not the contract's): a paid sign-up's order was paid and its tickets issued, after commit and after svc_rsvp_submitted. */
  svc_order_paid: [orderId: number];
  /** svc's own: a paid order was refunded (its rows cancelled), after commit and after svc_rsvp_cancelled. */
  svc_order_refunded: [orderId: number];

  // Actions: bookings
  svc_booking_created: [bookingId: number, data: BookingRowStrings | BookingReadBackFailed];
  svc_booking_confirmed: [bookingId: number];
  svc_booking_requested: [bookingId: number];
  svc_booking_approved: [bookingId: number];
  svc_booking_declined: [bookingId: number];
  svc_booking_cancelled: [bookingId: number];
  svc_booking_payment_pending: [bookingId: number];
  svc_booking_paid: [bookingId: number];
  svc_booking_payment_abandoned: [bookingId: number];
  /** Both starts UTC `Y-m-d H:i:s`; oldStart is `''` when the column was empty. */
  svc_booking_rescheduled: [bookingId: number, oldStart: string, newStart: string];

  // Filters: attendees
  svc_rsvp_form_fields: { args: [html: string, eventId: number]; returns: string };
  /**
   * The incoming value is whatever the previous callback returned, so a callback after
   * one that rejected receives the AppError: pass it on rather than merging into it.
   */
  svc_rsvp_custom_fields: {
    args: [fields: Record<string, unknown> | AppError, raw: RawCustomFieldInput, eventId: number];
    returns: Record<string, unknown> | AppError;
  };
  svc_rest_attendee_response: {
    args: [serialized: Record<string, unknown>, row: AttendeeRow];
    returns: Record<string, unknown>;
  };
  svc_rsvp_client_ip: { args: [ip: string]; returns: string };

  // Filters: bookings and site
  svc_booking_slots: {
    args: [list: Slot[], bookingTypeId: number, from: string, to: string];
    returns: Slot[];
  };
  svc_booking_assignment_strategy: {
    args: [strategy: AssignmentStrategy, assignment: string];
    returns: AssignmentStrategy;
  };
  svc_booking_awaiting_payment: {
    args: [awaiting: boolean, bookingTypeId: number, config: BookingTypeConfig];
    returns: boolean;
  };
  svc_booking_payment_url: {
    args: [url: string, bookingId: number, booking: RedactedBookingRow];
    returns: string;
  };
  svc_booking_payment_hold_hours: { args: [hours: number]; returns: number };
  svc_booking_client_ip: { args: [ip: string]; returns: string };
  svc_booking_location_labels: { args: [labels: LocationLabels]; returns: LocationLabels };
  svc_currency: { args: [code: string]; returns: string };
  svc_slot_cache_ttl: { args: [ttl: number]; returns: number };
}

export type HookKind = 'action' | 'filter';

export type CatalogueHookName = keyof HookCatalogue;

export type FilterName = {
  [Name in CatalogueHookName]: HookCatalogue[Name] extends readonly unknown[] ? never : Name;
}[CatalogueHookName];

export type ActionName = Exclude<CatalogueHookName, FilterName>;

/**
 * The same catalogue at runtime, so the engine can refuse an action registered as a
 * filter before any plugin has used the name. The mapped type makes a hook added to
 * `HookCatalogue` without an entry here (or with the wrong kind) a compile error.
 */
export const HOOK_KINDS: {
  readonly [Name in CatalogueHookName]: Name extends FilterName ? 'filter' : 'action';
} = {
  svc_rsvp_submitted: 'action',
  svc_attendee_status_changed: 'action',
  svc_attendee_updated: 'action',
  svc_attendee_deleted: 'action',
  svc_rsvp_cancelled: 'action',
  svc_pro_attendee_checked_in: 'action',
  svc_mp_checked_in: 'action',
  svc_order_paid: 'action',
  svc_order_refunded: 'action',
  svc_booking_created: 'action',
  svc_booking_confirmed: 'action',
  svc_booking_requested: 'action',
  svc_booking_approved: 'action',
  svc_booking_declined: 'action',
  svc_booking_cancelled: 'action',
  svc_booking_payment_pending: 'action',
  svc_booking_paid: 'action',
  svc_booking_payment_abandoned: 'action',
  svc_booking_rescheduled: 'action',
  svc_rsvp_form_fields: 'filter',
  svc_rsvp_custom_fields: 'filter',
  svc_rest_attendee_response: 'filter',
  svc_rsvp_client_ip: 'filter',
  svc_booking_slots: 'filter',
  svc_booking_assignment_strategy: 'filter',
  svc_booking_awaiting_payment: 'filter',
  svc_booking_payment_url: 'filter',
  svc_booking_payment_hold_hours: 'filter',
  svc_booking_client_ip: 'filter',
  svc_booking_location_labels: 'filter',
  svc_currency: 'filter',
  svc_slot_cache_ttl: 'filter',
};

export function catalogueKindOf(name: string): HookKind | undefined {
  return Object.hasOwn(HOOK_KINDS, name) ? HOOK_KINDS[name as CatalogueHookName] : undefined;
}

/**
 * Arguments of an action: the catalogue's tuple for a known action, `unknown[]` for a
 * plugin's own hook, `never` for a filter name (so it cannot be fired as an action).
 */
export type ActionArgs<Name extends string> = Name extends ActionName ? HookCatalogue[Name] : Name extends FilterName ? never : unknown[];

/** Arguments of a filter, the filtered value first; same fallbacks as ActionArgs. */
export type FilterArgs<Name extends string> = Name extends FilterName
  ? HookCatalogue[Name]['args']
  : Name extends ActionName
    ? never
    : [value: unknown, ...args: unknown[]];

export type FilterReturn<Name extends string> = Name extends FilterName ? HookCatalogue[Name]['returns'] : unknown;

/** A name usable with addAction/doAction: any string except a catalogue filter. */
export type ActionHookName<Name extends string> = Name extends FilterName ? never : Name;

/** A name usable with addFilter/applyFilters: any string except a catalogue action. */
export type FilterHookName<Name extends string> = Name extends ActionName ? never : Name;
