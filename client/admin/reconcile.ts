/**
 * The reconciliation rule for attendee edits made offline (issue 8 item 6, decision 012), as a
 * pure function: for each field the admin changed, compare the value they saw before editing
 * (the base) with the server's current value.
 *
 * - The server still has the base: the admin's value is sent.
 * - The server already has the admin's value: nothing to send, no conflict.
 * - The server has a third value (someone changed the field since the base): the server wins,
 *   the field is not sent, and the admin is told (`kept`).
 */

import { t } from '../i18n/i18n';

export const EDIT_FIELDS = ['displayName', 'email', 'quantity', 'status'] as const;
export type EditField = (typeof EDIT_FIELDS)[number];

export interface FieldValues {
  displayName?: string;
  email?: string;
  quantity?: number;
  status?: string;
}

/** A field the server kept: its value changed on the server since the admin's base. */
export interface KeptField {
  field: EditField;
  /** What the admin saw before editing. */
  base: string | number;
  /** What the admin typed (not sent). */
  mine: string | number;
  /** What the server has, and keeps. */
  server: string | number;
}

export interface Reconciled {
  /** The PATCH body: fields changed only by the admin. */
  patch: FieldValues;
  kept: KeptField[];
  /** Fields the server already holds the admin's value for. */
  already: EditField[];
}

/** The status the seed stored as '' means going (docs/api.md#errors); compare it as going. */
function comparable(field: EditField, value: string | number | undefined): string | number | undefined {
  if (field === 'status') return value === '' ? 'going' : value;
  if (typeof value === 'string') return value.trim();
  return value;
}

export function sameValue(field: EditField, a: string | number | undefined, b: string | number | undefined): boolean {
  return comparable(field, a) === comparable(field, b);
}

export function reconcileEdit(changes: FieldValues, base: FieldValues, current: Required<FieldValues>): Reconciled {
  const patch: FieldValues = {};
  const kept: KeptField[] = [];
  const already: EditField[] = [];
  for (const field of EDIT_FIELDS) {
    const mine = changes[field];
    if (mine === undefined) continue;
    const server = current[field];
    const seen = base[field];
    if (sameValue(field, server, mine)) already.push(field);
    else if (seen !== undefined && !sameValue(field, server, seen)) kept.push({ field, base: seen, mine, server });
    else (patch as Record<EditField, string | number>)[field] = mine;
  }
  return { patch, kept, already };
}

/**
 * Folds a second offline edit of the same attendee into the queued one: the newer values win,
 * and each field keeps the OLDEST base (what the server had when the admin first changed it).
 * A field edited back to its base is dropped.
 */
export function mergeEdits(
  queued: { changes: FieldValues; base: FieldValues },
  next: { changes: FieldValues; base: FieldValues },
): { changes: FieldValues; base: FieldValues } {
  const changes: FieldValues = { ...queued.changes, ...next.changes };
  const base: FieldValues = { ...next.base, ...queued.base };
  for (const field of EDIT_FIELDS) {
    if (changes[field] !== undefined && base[field] !== undefined && sameValue(field, changes[field], base[field])) {
      delete changes[field];
      delete base[field];
    }
  }
  return { changes, base };
}

// getters: each name is read when drawn, in the reader's language
export const FIELD_LABELS: Record<EditField, string> = {
  get displayName() {
    return t('admin.attendees.field.displayName');
  },
  get email() {
    return t('admin.attendees.field.email');
  },
  get quantity() {
    return t('admin.attendees.field.quantity');
  },
  get status() {
    return t('admin.attendees.field.status');
  },
};
