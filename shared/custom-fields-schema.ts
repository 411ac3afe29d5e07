/**
 * The zod schema of an admin's custom field definition (docs/api.md#custom-fields): apart from
 * shared/custom-fields.ts so the pages that only render and check answers load no zod.
 */
import { z } from 'zod';
import { ANSWER_MAX_LENGTH, CUSTOM_FIELD_KEY, CUSTOM_FIELD_TYPES, plainText, TEXT_LIKE_TYPES } from './custom-fields';

export const ZCustomFieldDefinition = z
  .object({
    key: z.string().regex(CUSTOM_FIELD_KEY, 'lower-case letters, digits and _ (a letter first), at most 40'),
    label: z.string().trim().min(1).max(200),
    type: z.enum(CUSTOM_FIELD_TYPES),
    required: z.boolean().default(false),
    options: z.array(z.string().trim().min(1).max(200)).max(50).optional(),
    maxLength: z.number().int().min(1).max(ANSWER_MAX_LENGTH).optional(),
  })
  .strict()
  .superRefine((field, issue) => {
    if (field.type === 'select') {
      const plain = (field.options ?? []).map(plainText);
      if (plain.length === 0) issue.addIssue({ code: 'custom', path: ['options'], message: 'a choice list needs at least one option' });
      else if (plain.some((option) => option === ''))
        issue.addIssue({ code: 'custom', path: ['options'], message: 'an option has no text left once tags are removed' });
      else if (new Set(plain).size !== plain.length) issue.addIssue({ code: 'custom', path: ['options'], message: 'options must differ from each other' });
    } else if (field.options !== undefined) {
      issue.addIssue({ code: 'custom', path: ['options'], message: 'only a choice list (select) has options' });
    }
    if (field.maxLength !== undefined && !TEXT_LIKE_TYPES.includes(field.type)) {
      issue.addIssue({ code: 'custom', path: ['maxLength'], message: `a ${field.type} field has no maximum length` });
    }
  });
