/**
 * The attendee edit form's rules in plain words (docs/api.md#rest PATCH /attendees/{id}): what is
 * wrong with each field before anything is sent, the same words for the server's refusal of a
 * field, and the patch of what changed.
 */
import { ApiError } from '../ui/errors';
import { t } from '../i18n/i18n';
import { MAX_EMAIL_LENGTH, MAX_NAME_LENGTH, MAX_QUANTITY, type AttendeeStatus, type UpdateAttendeeInput } from '../../shared/attendees';

export type AttendeeEditField = 'displayName' | 'email' | 'quantity' | 'status';

export interface AttendeeDraft {
  displayName: string;
  email: string;
  quantity: string;
  status: string;
}

export type AttendeeFieldErrors = Partial<Record<AttendeeEditField, string>>;

// getters: each sentence is read when asked for, in the reader's language
const PLAIN: Record<AttendeeEditField, string> = {
  get displayName() {
    return t('admin.attendees.problem.name', { max: MAX_NAME_LENGTH });
  },
  get email() {
    return t('admin.attendees.problem.email');
  },
  get quantity() {
    return t('admin.attendees.problem.quantity', { max: MAX_QUANTITY });
  },
  get status() {
    return t('admin.attendees.problem.status');
  },
};

// the shape the server accepts, checked loosely: the server has the last word and its refusal reads the same
const EMAIL_SHAPE = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

/** Each field's problem, in the words shown next to it; empty when the draft can be sent. */
export function attendeeDraftErrors(draft: AttendeeDraft, previousEmail?: string): AttendeeFieldErrors {
  const errors: AttendeeFieldErrors = {};
  const name = draft.displayName.trim();
  if (!name || name.length > MAX_NAME_LENGTH) errors.displayName = PLAIN.displayName;
  const email = draft.email.trim();
  // a walk-in registered at the door without an email keeps none (the PATCH leaves it out)
  const keepsNone = email === '' && previousEmail === '';
  if (!keepsNone && (email.length > MAX_EMAIL_LENGTH || !EMAIL_SHAPE.test(email))) errors.email = PLAIN.email;
  const quantity = Number(draft.quantity.trim());
  if (!/^\d+$/.test(draft.quantity.trim()) || quantity < 1 || quantity > MAX_QUANTITY) errors.quantity = PLAIN.quantity;
  return errors;
}

/** The fields that changed from `before`, trimmed, as the PATCH body. */
export function attendeePatch(
  before: { displayName: string; email: string; quantity: number; status: string | null },
  draft: AttendeeDraft,
): UpdateAttendeeInput {
  const patch: UpdateAttendeeInput = {};
  if (draft.displayName.trim() !== before.displayName) patch.displayName = draft.displayName.trim();
  if (draft.email.trim() !== before.email) patch.email = draft.email.trim();
  if (Number(draft.quantity) !== before.quantity) patch.quantity = Number(draft.quantity);
  if (draft.status !== (before.status || 'going')) patch.status = draft.status as AttendeeStatus;
  return patch;
}

/** The server's refusal of particular fields (svc_invalid_param names them) in the form's words; empty for any other error. */
export function attendeeServerFieldErrors(error: unknown): AttendeeFieldErrors {
  if (!(error instanceof ApiError) || error.code !== 'svc_invalid_param') return {};
  const params = error.data?.params;
  if (!params || typeof params !== 'object') return {};
  const errors: AttendeeFieldErrors = {};
  for (const field of Object.keys(params)) if (field in PLAIN) errors[field as AttendeeEditField] = PLAIN[field as AttendeeEditField];
  return errors;
}
