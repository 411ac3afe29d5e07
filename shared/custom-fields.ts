/**
 * An event's own sign-up questions (extended edition, docs/api.md#custom-fields): defined by
 * admins, rendered on the visitor's form (also offline), validated again by the server.
 */
import { z } from 'zod';

export const CUSTOM_FIELD_TYPES = ['text', 'textarea', 'email', 'number', 'select', 'checkbox'] as const;
export type CustomFieldType = (typeof CUSTOM_FIELD_TYPES)[number];

/** A field key: what follows `svc_cf_` in the input's name. */
export const CUSTOM_FIELD_KEY = /^[a-z][a-z0-9_]{0,39}$/;

export const ZCustomFieldDefinition = z
  .object({
    key: z.string().regex(CUSTOM_FIELD_KEY, 'lower-case letters, digits and _ (a letter first), at most 40'),
    label: z.string().trim().min(1).max(200),
    type: z.enum(CUSTOM_FIELD_TYPES),
    required: z.boolean().default(false),
    options: z.array(z.string().trim().min(1).max(200)).max(50).optional(),
    maxLength: z.number().int().min(1).max(10_000).optional(),
  })
  .strict();
export type CustomFieldDefinition = z.infer<typeof ZCustomFieldDefinition>;
