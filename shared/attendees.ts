/** Attendee and sign-up schemas shared by the server (REST + tRPC) and the PWA. */
import { z } from 'zod';
import { ZQueryId } from './schemas';
import { ZTicketCategoryRef } from './tickets';
import { ZOrderCreatedDto } from './payments';

export const ATTENDEE_STATUSES = ['going', 'waitlist', 'cancelled'] as const;
export const ZAttendeeStatus = z.enum(ATTENDEE_STATUSES);
export type AttendeeStatus = z.infer<typeof ZAttendeeStatus>;

/** Contract "Limits": the example custom input's maxlength; we use it for names too. */
export const MAX_NAME_LENGTH = 190;
/** RFC 5321's practical limit for an address. */
export const MAX_EMAIL_LENGTH = 254;
/** Hard ceiling for one sign-up; the event's maxPerSignup is usually lower. */
export const MAX_QUANTITY = 1000;

export const ZEmailAddress = z
  .string()
  .trim()
  .max(MAX_EMAIL_LENGTH)
  .pipe(z.email({ message: 'must be a valid email address' }));
// Form posts send every value as a string; JSON may send a number.
const ZQuantity = z.preprocess((v) => (typeof v === 'string' && /^\s*-?\d+\s*$/.test(v) ? Number(v) : v), z.number().int().min(1).max(MAX_QUANTITY));

/** The visitor's sign-up fields (docs/api.md#rest: email, display_name, quantity; snake_case as the form posts them). */
export const ZSignupFields = z.object({
  email: ZEmailAddress,
  display_name: z.string().trim().min(1).max(MAX_NAME_LENGTH),
  quantity: ZQuantity.default(1),
});
export type SignupFields = z.infer<typeof ZSignupFields>;

/**
 * A free sign-up's answer; a paid event answers an order awaiting payment instead (docs/api.md#payments).
 * `ticketCode` (the QR payload) goes only to the visitor who just signed up and is going; a
 * waitlisted sign-up has none to show.
 */
const ZSignedUpRow = z.object({
  id: z.number().int(),
  status: ZAttendeeStatus,
  ticketCode: z.string().optional(),
  /** With a seat: the UID of the mailed `event.ics`, for the page's "Add to calendar" file. */
  calendarUid: z.string().optional(),
  /** With a seat: the key to its PDF ticket, `GET /tickets/signed/{ticketPdfToken}/ticket.pdf` (never the cancel token). */
  ticketPdfToken: z.string().optional(),
  /** With a seat: whether the server makes Apple Wallet passes, `GET /tickets/signed/{ticketPdfToken}/ticket.pkpass` (docs/api.md#wallet-pass). */
  walletAvailable: z.boolean().optional(),
});

/**
 * A sign-up on an event with ticket categories (docs/api.md#tickets) made one row per category
 * line: each, with its category. An order's answer lists the rows made at once (free and
 * waitlisted lines); its paid lines become tickets when it is paid.
 */
const ZSignedUpTickets = z.array(ZSignedUpRow.extend({ ticketCategoryId: z.number().int().nullable() }));

export const ZSignupResult = z.union([
  ZSignedUpRow.extend({ tickets: ZSignedUpTickets.optional() }),
  ZOrderCreatedDto.extend({ tickets: ZSignedUpTickets.optional() }),
]);
export type SignupResult = z.infer<typeof ZSignupResult>;

/** Admin PATCH /attendees/{id}: the contract's camelCase body. */
export const ZUpdateAttendeeInput = z.object({
  displayName: z.string().trim().min(1).max(MAX_NAME_LENGTH).optional(),
  email: ZEmailAddress.optional(),
  quantity: z.number().int().min(1).max(MAX_QUANTITY).optional(),
  status: ZAttendeeStatus.optional(),
});
export type UpdateAttendeeInput = z.infer<typeof ZUpdateAttendeeInput>;

/** Columns the attendee list can be ordered by (ties broken by id). */
export const ATTENDEE_SORT_KEYS = ['id', 'displayName', 'email', 'status', 'quantity', 'createdUtc', 'updatedUtc'] as const;
export type AttendeeSortKey = (typeof ATTENDEE_SORT_KEYS)[number];

export const ZAttendeeListQuery = z.object({
  eventId: ZQueryId.optional(),
  status: ZAttendeeStatus.optional(),
  search: z.string().trim().max(MAX_EMAIL_LENGTH).optional(),
  /** Admin table ordering; default id ascending (the seed's order). */
  sort: z.enum(ATTENDEE_SORT_KEYS).default('id'),
  order: z.enum(['asc', 'desc']).default('asc'),
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  perPage: z.coerce.number().int().min(1).max(500).default(50),
});
export type AttendeeListQuery = z.infer<typeof ZAttendeeListQuery>;

export const ZAttendeeExportQuery = z.object({
  eventId: ZQueryId,
  format: z.enum(['csv', 'json', 'xlsx']).default('csv'),
});
export type AttendeeExportQuery = z.infer<typeof ZAttendeeExportQuery>;

/** What every view of an attendee carries: the door's cache, the admin's cache, the sync server's rows. */
export const ZAttendeeCore = z.object({
  id: z.number().int(),
  eventId: z.number().int(),
  email: z.string(),
  displayName: z.string(),
  status: z.string(),
  quantity: z.number().int(),
});
export type AttendeeCore = z.infer<typeof ZAttendeeCore>;

/** The REST serialization before `svc_rest_attendee_response` adds keys (contract table + docs/api.md#errors timestamps). */
export const ZAttendeeDto = ZAttendeeCore.extend({
  customFields: z.record(z.string(), z.unknown()).nullable(),
  createdUtc: z.string(),
  updatedUtc: z.string(),
  /** Its ticket category (docs/api.md#tickets): only on events with categories (null for a row without one, a walk-in). */
  ticketCategoryId: z.number().int().nullable().optional(),
  ticketCategory: ZTicketCategoryRef.nullable().optional(),
}).loose();
export type AttendeeDto = z.infer<typeof ZAttendeeDto>;

/** What the public /cancel/{token} page shows: no secrets. */
export const ZCancelPreview = z.object({
  eventId: z.number().int(),
  eventTitle: z.string(),
  eventStartsUtc: z.string(),
  eventTimezone: z.string(),
  displayName: z.string(),
  quantity: z.number().int(),
  status: z.string(),
  /** Whether the server makes Apple Wallet passes: the page then links `GET /tickets/{cancelToken}/ticket.pkpass` (docs/api.md#wallet-pass). */
  walletAvailable: z.boolean(),
  /**
   * A ticket of a paid order: whether its money comes back and how — `refunding`/`refunded` to the
   * way it was paid, `none` (cancelling does not refund it; the organizer decides), `shop` (bought
   * in an outside shop: refunded there); null for a ticket no one paid for here.
   */
  refund: z.enum(['refunding', 'refunded', 'none', 'shop']).nullable(),
});
export type CancelPreview = z.infer<typeof ZCancelPreview>;

export const ZCancelToken = z.string().min(1).max(200);
/** The cancel link's token as a path parameter (`/attendees/cancel/{token}`). */
export const ZCancelTokenParams = z.object({ token: ZCancelToken });
/** `GET /tickets/{cancelToken}/ticket.pdf`: the PDF ticket, the cancel link's token as the credential. */
export const ZTicketPdfParams = z.object({ cancelToken: ZCancelToken });
/** `GET /tickets/signed/{ticketPdfToken}/ticket.pdf`: the PDF ticket with the sign-up answer's key. */
export const ZSignedTicketPdfParams = z.object({ ticketPdfToken: z.string().min(1).max(200) });

/** `POST /attendees/cancel/{token}`: the sign-up, now cancelled. */
export const ZCancelResult = z.object({ id: z.number().int(), status: z.literal('cancelled') });
export type CancelResult = z.infer<typeof ZCancelResult>;

/**
 * `POST /events/{id}/signup`'s body as posted (JSON or form: email, display_name, quantity,
 * svc_ts, svc_hp, svc_cf_<key>…). The service validates it itself (ZSignupFields), after the
 * contract's spam checks and throttles.
 */
export const ZSignupBody = z.record(z.string(), z.unknown());

/**
 * The same body as the OpenAPI document shows it: the fields the service reads, in the types it
 * accepts (a form posts the quantity as text). Further `svc_cf_<key>` answers may follow.
 */
export const ZSignupBodyDocumented = z
  .object({
    email: z.string().max(254).meta({ description: "The attendee's email address", format: 'email' }),
    display_name: z.string().min(1).max(MAX_NAME_LENGTH).meta({ description: 'The name on the ticket' }),
    quantity: z
      .union([z.number().int().min(1).max(MAX_QUANTITY), z.string().regex(/^\s*\d+\s*$/)])
      .optional()
      .meta({ description: 'Seats, 1 by default (a form posts it as text)' }),
    svc_ts: z.string().meta({ description: 'The formToken of GET /events/{id}/form, posted back (minimum fill time)' }),
    svc_hp: z.string().max(0).optional().meta({ description: 'Honeypot: must stay empty' }),
  })
  .catchall(z.unknown())
  .meta({ description: "Answers to the event's own questions follow as svc_cf_<key> (docs/api.md#custom-fields)." });
export type SignupBody = z.infer<typeof ZSignupBody>;
