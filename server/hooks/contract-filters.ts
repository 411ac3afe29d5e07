/**
 * The one place where the contract's rules for filter results are enforced.
 *
 * Plugins may be plain JavaScript, so a filter can answer anything; callers run
 * `applyContractFilter(hooks, name, value, ...args)` and get a value of the documented
 * type back, never re-checking it themselves.
 */
import { AppError } from '../../shared/errors';
import { parseUtcString } from '../../shared/time';
import type { FilterArgs, FilterName } from './catalogue';
import type { Hooks } from './engine';
import type { AssignmentStrategy, CustomFieldAnswers, CustomFieldValue, LocationLabels, RawCustomFieldInput, Slot } from './types';

/** Contract "Currency": default USD. */
export const DEFAULT_CURRENCY = 'USD';
/** Contract "Limits": payment hold window, 24 hours by default. */
export const DEFAULT_PAYMENT_HOLD_HOURS = 24;
/** Contract "Limits": the hold window is at least 1 hour. */
export const MIN_PAYMENT_HOLD_HOURS = 1;
/** Contract "Limits": slot cache lifetime, 300 seconds by default (0 disables it). */
export const DEFAULT_SLOT_CACHE_TTL_SECONDS = 300;
/** Contract "Booking type": default labels; `custom` has none. */
export const DEFAULT_LOCATION_LABELS: Readonly<LocationLabels> = Object.freeze({
  in_person: 'In person',
  virtual: 'Online',
  phone: 'By phone',
});

/** What each filter yields once its contract rule has been applied. */
export interface ContractFilterResults {
  svc_rsvp_form_fields: string;
  svc_rsvp_custom_fields: CustomFieldAnswers | AppError;
  svc_rest_attendee_response: Record<string, unknown>;
  svc_rsvp_client_ip: string;
  svc_booking_slots: Slot[];
  svc_booking_assignment_strategy: AssignmentStrategy;
  svc_booking_awaiting_payment: boolean;
  svc_booking_payment_url: string;
  svc_booking_payment_hold_hours: number;
  svc_booking_client_ip: string;
  svc_booking_location_labels: LocationLabels;
  svc_currency: string;
  svc_slot_cache_ttl: number;
}

type ContractRule<Name extends FilterName> = (result: unknown, input: FilterArgs<Name>) => ContractFilterResults[Name];

/** The rule table; a filter added to the catalogue without a rule here does not compile. */
const CONTRACT_RULES: { readonly [Name in FilterName]: ContractRule<Name> } = {
  svc_rsvp_form_fields: (result) => (typeof result === 'string' ? result : ''),
  svc_rsvp_custom_fields: (result) => sanitizeCustomFieldsResult(result),
  // Contract: "Result cast to array; never return a non-array". PHP's (array) cast of a
  // scalar gives [scalar], which means nothing as a camelCase payload; keeping the
  // unfiltered payload keeps the row listable and exportable.
  svc_rest_attendee_response: (result, [serialized]) => (isPlainObject(result) ? result : serialized),
  svc_rsvp_client_ip: (result) => castToTrimmedString(result),
  svc_booking_slots: (result) => sanitizeSlots(result),
  svc_booking_assignment_strategy: (result) => requireAssignmentStrategy(result),
  svc_booking_awaiting_payment: (result) => result === true,
  svc_booking_payment_url: (result) => keepAbsoluteHttpUrl(result),
  svc_booking_payment_hold_hours: (result) => (isFiniteNumber(result) ? Math.max(MIN_PAYMENT_HOLD_HOURS, Math.floor(result)) : DEFAULT_PAYMENT_HOLD_HOURS),
  svc_booking_client_ip: (result) => castToTrimmedString(result),
  // A broken callback keeps the labels the caller passed in (defaults or settings).
  svc_booking_location_labels: (result, [labels]) => (isPlainObject(result) ? keepStringEntries(result) : keepStringEntries(labels)),
  svc_currency: (result) => normalizeCurrency(result),
  svc_slot_cache_ttl: (result) => (isFiniteNumber(result) ? Math.max(0, Math.floor(result)) : DEFAULT_SLOT_CACHE_TTL_SECONDS),
};

/**
 * Applies a catalogue filter and its contract rule. Callbacks that throw still
 * propagate (engine rule); only returned values are coerced.
 */
export async function applyContractFilter<Name extends FilterName>(hooks: Hooks, name: Name, ...input: FilterArgs<Name>): Promise<ContractFilterResults[Name]> {
  // The typed signature promises plugins' answers match the catalogue; here they are
  // treated as what they really are: unknown.
  const applyUntyped = hooks.applyFilters.bind(hooks) as (name: string, ...input: unknown[]) => Promise<unknown>;
  const result = await applyUntyped(name, ...input);
  const rule = CONTRACT_RULES[name] as ContractRule<Name>;
  return rule(result, input);
}

/**
 * Runs `svc_rsvp_custom_fields` from its contract default (no answers). An AppError
 * result means "reject the sign-up with it"; otherwise store `encodeCustomFields(answers)`.
 */
export function applyRsvpCustomFields(hooks: Hooks, raw: RawCustomFieldInput, eventId: number): Promise<CustomFieldAnswers | AppError> {
  return applyContractFilter(hooks, 'svc_rsvp_custom_fields', {}, raw, eventId);
}

/** The custom_fields column value: JSON, or NULL for an empty answer set (contract). */
export function encodeCustomFields(answers: CustomFieldAnswers): string | null {
  return Object.keys(answers).length === 0 ? null : JSON.stringify(answers);
}

/** Trimmed, uppercased three-letter code; anything else gives the default USD. */
export function normalizeCurrency(code: unknown): string {
  if (typeof code !== 'string') return DEFAULT_CURRENCY;
  const trimmed = code.trim();
  // Checked before uppercasing: 'ß' or 'ı' uppercase into ASCII letters.
  return /^[A-Za-z]{3}$/.test(trimmed) ? trimmed.toUpperCase() : DEFAULT_CURRENCY;
}

function sanitizeCustomFieldsResult(result: unknown): CustomFieldAnswers | AppError {
  if (result instanceof AppError) return result;
  if (!isPlainObject(result) && !Array.isArray(result)) return {};
  const kept = Object.entries(result).filter((entry): entry is [string, CustomFieldValue] => isStorableAnswer(entry[1]));
  // fromEntries defines own properties, so a "__proto__" answer cannot reach the prototype.
  return Object.fromEntries(kept);
}

function isStorableAnswer(value: unknown): value is CustomFieldValue {
  if (typeof value === 'string' || typeof value === 'boolean') return true;
  // NaN and Infinity would be stored as JSON null.
  if (typeof value === 'number') return Number.isFinite(value);
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

/**
 * Cast to a zero-indexed list (an object map gives its values), keep only entries whose
 * shape can be booked, sorted by UTC start. Whether hosts are real users and the seats
 * suffice is the booking service's check; the contract's 409s come from there.
 */
function sanitizeSlots(result: unknown): Slot[] {
  const list: unknown[] = Array.isArray(result) ? result : isPlainObject(result) ? Object.values(result) : [];
  const slots = list.flatMap((candidate) => {
    const slot = toSlot(candidate);
    return slot ? [slot] : [];
  });
  // The format is fixed-width, so string order is time order; sort is stable.
  return slots.sort((a, b) => (a.start_utc < b.start_utc ? -1 : a.start_utc > b.start_utc ? 1 : 0));
}

function toSlot(candidate: unknown): Slot | null {
  if (!isPlainObject(candidate)) return null;
  const { start_utc, end_utc, start, label, hosts, capacity_left } = candidate;
  if (typeof start_utc !== 'string' || parseUtcString(start_utc) === null) return null;
  if (!Array.isArray(hosts) || !hosts.every((id) => Number.isInteger(id) && id > 0)) return null;
  if (!Number.isInteger(capacity_left) || (capacity_left as number) < 0) return null;
  // The contract names only these three for an added slot: the write path derives the
  // end from the type's duration, and the rest is display text.
  return {
    start_utc,
    end_utc: typeof end_utc === 'string' ? end_utc : '',
    start: typeof start === 'string' ? start : '',
    label: typeof label === 'string' ? label : '',
    hosts: [...(hosts as number[])],
    capacity_left: capacity_left as number,
  };
}

function requireAssignmentStrategy(result: unknown): AssignmentStrategy {
  const pick = typeof result === 'object' && result !== null ? (result as { pick?: unknown }).pick : undefined;
  if (typeof pick !== 'function') {
    // Contract "Errors": a non-object strategy is a type error, HTTP 500 on submission.
    throw new AppError('svc_internal', 'Assignment strategy filter returned a non-object', { status: 500 });
  }
  return result as AssignmentStrategy;
}

function keepAbsoluteHttpUrl(result: unknown): string {
  if (typeof result !== 'string') return '';
  let url: URL;
  try {
    url = new URL(result.trim());
  } catch {
    return '';
  }
  // href, not the input: the parser has dropped any tab or newline a callback slipped in.
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : '';
}

function keepStringEntries(value: object): LocationLabels {
  return Object.fromEntries(Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}

function castToTrimmedString(result: unknown): string {
  return String(result ?? '').trim();
}

function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
