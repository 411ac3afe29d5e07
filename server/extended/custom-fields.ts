/**
 * Custom-field definitions (docs/api.md#custom-fields): an event's own sign-up questions,
 * rendered through `svc_rsvp_form_fields` and validated at priority 10 of
 * `svc_rsvp_custom_fields`. Every sign-up path (free, waitlisted, paid: the order keeps the
 * answers) runs that filter before anything is stored, so one validator covers them all.
 */
import { escapeHtml } from '../../shared/html';
import { AppError } from '../../shared/errors';
import {
  checkCustomAnswers,
  customAnswersMessage,
  CUSTOM_FIELDS_HTML_MARK,
  customFieldInputName,
  type CustomFieldDefinition,
} from '../../shared/custom-fields';
import { ZCustomFieldDefinition } from '../../shared/custom-fields-schema';
import { PRIORITY_CUSTOM_FIELDS, type CustomFieldAnswers, type Hooks } from '../hooks';
import { eventsRepository } from '../modules/events/events.repository';
import type { PluginContext } from '../plugins/load';

export function registerCustomFields(hooks: Hooks, ctx: PluginContext): void {
  const events = eventsRepository(ctx.db);

  /**
   * One query by primary key. Not cached: a cache would need the row's updatedUtc to stay
   * right across instances, and reading that is the same query.
   */
  async function definitionsOf(eventId: number): Promise<CustomFieldDefinition[]> {
    const event = await events.findById(eventId);
    if (!event) return [];
    // Written through the event schema; a row edited by hand keeps its well-formed fields.
    return event.fields.filter((field) => {
      const ok = ZCustomFieldDefinition.safeParse(field).success;
      if (!ok) ctx.logger.warn({ eventId, key: (field as { key?: unknown }).key }, 'custom field definition ignored: not well-formed');
      return ok;
    });
  }

  hooks.addFilter(
    'svc_rsvp_form_fields',
    async (html, eventId) => {
      const definitions = await definitionsOf(eventId);
      return definitions.length === 0 ? html : html + renderCustomFields(definitions);
    },
    PRIORITY_CUSTOM_FIELDS,
    2,
  );

  hooks.addFilter(
    'svc_rsvp_custom_fields',
    async (fields, raw, eventId) => {
      // an earlier callback's refusal is passed on (docs/api.md#plugins)
      if (fields instanceof AppError) return fields;
      const definitions = await definitionsOf(eventId);
      if (definitions.length === 0) return fields;
      const checked = checkCustomAnswers(definitions, raw);
      if (checked.ok) return checked.answers satisfies CustomFieldAnswers;
      return refusal(definitions, checked.errors);
    },
    PRIORITY_CUSTOM_FIELDS,
    3,
  );
}

/** 400 svc_invalid_param naming each bad input `svc_cf_<key>`, with the label in the message. */
function refusal(definitions: readonly CustomFieldDefinition[], errors: Record<string, string>): AppError {
  const bad = definitions.filter((field) => errors[field.key] !== undefined);
  const params = Object.fromEntries(bad.map((field) => [customFieldInputName(field.key), errors[field.key]!]));
  return new AppError('svc_invalid_param', customAnswersMessage(definitions, errors), { params });
}

/**
 * The fields as HTML for forms rendered from `GET /events/{id}/form`, in one wrapper the PWA
 * recognises (it renders the same fields itself from the event, offline too).
 */
export function renderCustomFields(definitions: readonly CustomFieldDefinition[]): string {
  return `<div class="svc-cf" ${CUSTOM_FIELDS_HTML_MARK}="">${definitions.map(renderField).join('')}</div>`;
}

function renderField(field: CustomFieldDefinition): string {
  const id = `svc-cf-${field.key}`;
  const name = customFieldInputName(field.key);
  const required = field.required ? ' required' : '';
  const maxLength = field.maxLength !== undefined ? ` maxlength="${field.maxLength}"` : '';
  const marker = field.required ? '<span class="svc-cf-required"> (required)</span>' : '';
  const label = `<label for="${id}">${escapeHtml(field.label)}${marker}</label>`;
  switch (field.type) {
    case 'checkbox':
      return `<div class="field svc-cf-check"><input id="${id}" name="${name}" type="checkbox" value="yes"${required}>${label}</div>`;
    case 'select': {
      const options = (field.options ?? []).map((option) => `<option value="${escapeHtml(option)}">${escapeHtml(option)}</option>`).join('');
      return `<div class="field">${label}<select id="${id}" name="${name}"${required}><option value="">Choose…</option>${options}</select></div>`;
    }
    case 'textarea':
      return `<div class="field">${label}<textarea id="${id}" name="${name}" rows="3"${required}${maxLength}></textarea></div>`;
    case 'email':
      return `<div class="field">${label}<input id="${id}" name="${name}" type="email" inputmode="email" autocomplete="off"${required}${maxLength}></div>`;
    case 'number':
      return `<div class="field">${label}<input id="${id}" name="${name}" type="text" inputmode="decimal"${required}${maxLength}></div>`;
    default:
      return `<div class="field">${label}<input id="${id}" name="${name}" type="text"${required}${maxLength}></div>`;
  }
}
