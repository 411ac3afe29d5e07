import type { AttendeeDto } from '../../../shared/attendees';
import type { Db } from '../../db/client';
import { applyContractFilter, withRowBatch, type AttendeeRow, type Hooks } from '../../hooks';
import { ticketsRepository } from '../orders/tickets.repository';
import type { AttendeeRecord } from './attendees.repository';

/** What the serialization reads besides the row: the filter, and the categories' names. */
export interface SerializeDeps {
  hooks: Hooks;
  db: Db;
}

/** The contract's raw snake_case row (second argument of svc_rest_attendee_response). */
export function toAttendeeRow(r: AttendeeRecord): AttendeeRow {
  return {
    id: r.id,
    event_id: r.eventId,
    email: r.email,
    display_name: r.displayName,
    quantity: r.quantity,
    status: r.status,
    custom_fields: r.customFields,
    cancel_token: r.cancelToken,
    created_utc: r.createdUtc,
    updated_utc: r.updatedUtc,
  };
}

function decodeCustomFields(json: string | null): Record<string, unknown> | null {
  if (json === null) return null;
  try {
    const value: unknown = JSON.parse(json);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * The ONE attendee serialization (list, get, CSV and JSON export): the contract's camelCase
 * table plus createdUtc/updatedUtc, and for an event that sells through ticket categories its
 * category (docs/api.md#tickets), then `svc_rest_attendee_response` once per row. The cancel
 * token and the ticket code are never part of it. The filter adds keys (the DTO is loose); what a
 * listener returns is its word, not checked again here.
 */
export async function serializeAttendee(deps: SerializeDeps, record: AttendeeRecord): Promise<AttendeeDto> {
  return (await serializeAttendees(deps, [record]))[0]!;
}

/** What the page's rows need to know of their categories: the names, and which events sell through categories. */
interface CategoryFacts {
  names: ReadonlyMap<number, string>;
  eventsWithCategories: ReadonlySet<number>;
}

function serializedOf(record: AttendeeRecord, categories: CategoryFacts): AttendeeDto {
  const serialized: AttendeeDto = {
    id: record.id,
    eventId: record.eventId,
    email: record.email,
    displayName: record.displayName,
    status: record.status,
    quantity: record.quantity,
    customFields: decodeCustomFields(record.customFields),
    createdUtc: record.createdUtc,
    updatedUtc: record.updatedUtc,
  };
  // an event without categories keeps exactly the contract's keys
  if (!categories.eventsWithCategories.has(record.eventId)) return serialized;
  const name = record.ticketCategoryId === null ? undefined : categories.names.get(record.ticketCategoryId);
  serialized.ticketCategoryId = record.ticketCategoryId;
  serialized.ticketCategory = name === undefined ? null : { id: record.ticketCategoryId!, name };
  return serialized;
}

/**
 * A page of rows (list, export page): the categories in two queries for the page, each row
 * through the filter once, and listeners may prefetch for the whole page (batchLoad) instead of
 * querying per row.
 */
export async function serializeAttendees(deps: SerializeDeps, records: AttendeeRecord[]): Promise<AttendeeDto[]> {
  const tickets = ticketsRepository(deps.db);
  const categoryIds = [...new Set(records.flatMap((r) => (r.ticketCategoryId === null ? [] : [r.ticketCategoryId])))];
  const [names, eventsWithCategories] = await Promise.all([
    tickets.namesOf(categoryIds),
    tickets.eventsWithCategories([...new Set(records.map((r) => r.eventId))]),
  ]);
  return withRowBatch(
    records.map((r) => r.id),
    async () => {
      const items: AttendeeDto[] = [];
      for (const record of records) {
        const serialized = serializedOf(record, { names, eventsWithCategories });
        items.push((await applyContractFilter(deps.hooks, 'svc_rest_attendee_response', serialized, toAttendeeRow(record))) as AttendeeDto);
      }
      return items;
    },
  );
}

/** The serialization's own keys, in order: the first columns of a CSV export. */
export const SERIALIZED_ATTENDEE_KEYS = ['id', 'eventId', 'email', 'displayName', 'status', 'quantity', 'customFields', 'createdUtc', 'updatedUtc'] as const;
/** The ticket category's keys: in CSV and XLSX one `ticketCategory` column of names, for an event with categories only. */
export const SERIALIZED_CATEGORY_KEYS = ['ticketCategoryId', 'ticketCategory'] as const;
