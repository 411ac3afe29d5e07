import type { AttendeeDto } from '../../../shared/attendees';
import { applyContractFilter, withRowBatch, type AttendeeRow, type Hooks } from '../../hooks';
import type { AttendeeRecord } from './attendees.repository';

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
 * table plus createdUtc/updatedUtc, then `svc_rest_attendee_response` once per row. The cancel
 * token and the ticket code are never part of it. The filter adds keys (the DTO is loose); what
 * a listener returns is its word, not checked again here.
 */
export async function serializeAttendee(hooks: Hooks, record: AttendeeRecord): Promise<AttendeeDto> {
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
  return (await applyContractFilter(hooks, 'svc_rest_attendee_response', serialized, toAttendeeRow(record))) as AttendeeDto;
}

/**
 * A page of rows (list, export page): each row still goes through the filter once, but
 * listeners may prefetch for the whole page (batchLoad) instead of querying per row.
 */
export function serializeAttendees(hooks: Hooks, records: AttendeeRecord[]): Promise<AttendeeDto[]> {
  return withRowBatch(
    records.map((r) => r.id),
    async () => {
      const items: AttendeeDto[] = [];
      for (const record of records) items.push(await serializeAttendee(hooks, record));
      return items;
    },
  );
}

/** The serialization's own keys, in order: the first columns of a CSV export. */
export const SERIALIZED_ATTENDEE_KEYS = ['id', 'eventId', 'email', 'displayName', 'status', 'quantity', 'customFields', 'createdUtc', 'updatedUtc'] as const;
