// `npm run lint`: ESLint with typescript-eslint's recommended rules (decision 014); Prettier formats.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Letters of the scripts written so far (Latin with accents, Arabic): text a person reads. */
const LETTERS = '/[A-Za-z\\u00C0-\\u024F\\u0600-\\u06FF]/';
const FROM_CATALOGUE = "Visible text comes from a message catalogue: t('screen.meaning').";
/** Attributes a person reads or hears, and this app's components' props that are shown as text. */
const TEXT_ATTRIBUTES = '/^(alt|title|placeholder|label|loading|message|heading|aria-label|aria-description|aria-valuetext)$/';

/** Mail modules, the PDF ticket and the receipts: every word a recipient reads comes from server/i18n/messages through translate()/translator(). */
const MAIL_FILES = [
  'server/**/*.mail.ts',
  'server/modules/booking/booking.notifications.ts',
  'server/mail/layout.ts',
  'server/mail/ics.ts',
  'server/pdf/**/*.ts',
  'server/modules/attendees/ticket-pdf.service.ts',
  'server/modules/orders/receipts.service.ts',
];
const FROM_SERVER_CATALOGUE = "Mail text comes from the server's catalogue: tr('mail.screen.meaning', {…}) (server/i18n/translate.ts).";
/** Two words in a row, in any script written so far: a sentence, not a key, a path or a protocol token. */
const WORDS = '/[A-Za-z\\u00C0-\\u024F\\u0600-\\u06FF][:,.!?]?\\s+[A-Za-z\\u00C0-\\u024F\\u0600-\\u06FF(]/';
/** A word before a placeholder or after one in a template (`Hello ${name},`, `Reminder: ${title}`). */
const TEMPLATE_WORDS = '/[A-Za-z\\u00C0-\\u024F\\u0600-\\u06FF][:,.!?]?\\s|\\s[A-Za-z\\u00C0-\\u024F\\u0600-\\u06FF]{2,}[.,:!?)]?$/';
/** The mail's own fields: whatever a literal here says, the recipient reads. */
const MAIL_FIELDS = '/^(subject|text|html|summary|description)$/';
/** Developer-facing text is not mail text: thrown errors (an API error's words are localized elsewhere) and log lines. */
const NOT_FOR_THE_RECIPIENT =
  ':not(NewExpression *, CallExpression[callee.object.property.name="logger"] > *, CallExpression[callee.object.name="logger"] > *)';

export default tseslint.config(
  { ignores: ['dist/**', 'data/**', 'node_modules/**', 'drizzle/**', 'client/public/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // The compiler checks these (noUnusedLocals, noUnusedParameters); `_name` marks a deliberate skip.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      'no-sequences': 'error',
      'prefer-template': 'error',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    // Solid assigns `ref={el}` variables at render; the rule cannot see that.
    files: ['client/**/*.tsx'],
    rules: { 'no-unassigned-vars': 'off' },
  },
  {
    // Screens already translated (docs/decisions/027-languages.md): visible words come from the
    // catalogues through t()/tx(), never written in JSX. Widen the list as more screens are translated.
    files: [
      'client/app.tsx',
      'client/i18n/**/*.tsx',
      'client/ui/form-error.tsx',
      'client/ui/home.tsx',
      'client/ui/network-status.tsx',
      'client/ui/not-found.tsx',
      'client/ui/page.tsx',
      'client/ui/time-zone-picker.tsx',
      'client/ui/update-banner.tsx',
      'client/visitor/pages/book.tsx',
      'client/visitor/pages/events.tsx',
      'client/visitor/pages/event.tsx',
      'client/visitor/pages/cancel.tsx',
      'client/visitor/pages/manage.tsx',
      'client/visitor/pages/pay.tsx',
      'client/visitor/pages/submit.tsx',
      'client/visitor/components/payment-pending.tsx',
      'client/visitor/components/slot-picker.tsx',
      'client/visitor/components/states.tsx',
      'client/visitor/components/ticket-qr.tsx',
      'client/visitor/components/when-lines.tsx',
      'client/door/**/*.tsx',
      'client/admin/components/language-field.tsx',
      'client/admin/components/admin-frame.tsx',
      'client/admin/components/admin-language-menu.tsx',
      'client/admin/components/action-notice.tsx',
      'client/admin/components/async-view.tsx',
      'client/admin/components/confirm.tsx',
      'client/admin/components/data-table.tsx',
      'client/admin/components/extended-only.tsx',
      'client/admin/components/fields.tsx',
      'client/admin/components/pager.tsx',
      'client/admin/components/row-menu.tsx',
      'client/admin/pages/index.tsx',
      'client/admin/pages/events.tsx',
      'client/admin/pages/event-form.tsx',
      'client/admin/pages/login.tsx',
      'client/admin/pages/invite.tsx',
      'client/admin/pages/attendees.tsx',
      'client/admin/components/attendee-edit-panel.tsx',
      'client/admin/components/offline-panel.tsx',
      'client/admin/pages/booking-types.tsx',
      'client/admin/pages/orders.tsx',
      'client/admin/pages/order.tsx',
      'client/admin/pages/outbox.tsx',
      'client/admin/pages/devices.tsx',
      'client/admin/components/pairing-qr.tsx',
      'client/admin/pages/submissions.tsx',
      'client/admin/pages/resources.tsx',
      'client/admin/pages/webhooks.tsx',
      'client/admin/pages/webhook.tsx',
      'client/admin/components/webhook-endpoint.tsx',
      'client/admin/pages/bookings.tsx',
      'client/admin/pages/booking-type-form.tsx',
      'client/admin/components/weekly-editor.tsx',
      'client/admin/components/chat-webhook-field.tsx',
      'client/admin/pages/event-dashboard.tsx',
      'client/admin/components/arrivals-chart.tsx',
      'client/admin/components/attendee-timeline.tsx',
      'client/admin/components/event-picker.tsx',
      'client/admin/components/event-type-picker.tsx',
      'client/admin/pages/settings.tsx',
    ],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...[
          `JSXText[value=${LETTERS}]`,
          `:matches(JSXElement, JSXFragment) > JSXExpressionContainer > Literal[value=${LETTERS}]`,
          `:matches(JSXElement, JSXFragment) > JSXExpressionContainer > TemplateLiteral > TemplateElement[value.raw=${LETTERS}]`,
          `JSXAttribute[name.name=${TEXT_ATTRIBUTES}] > Literal[value=${LETTERS}]`,
          `JSXAttribute[name.name=${TEXT_ATTRIBUTES}] > JSXExpressionContainer > Literal[value=${LETTERS}]`,
        ].map((selector) => ({ selector, message: FROM_CATALOGUE })),
      ],
    },
  },
  {
    // docs/decisions/027-languages.md, "Mails": a hard-coded sentence in a mail module would reach
    // every recipient in English. Markup (layout.ts's `<html …>`) and protocol tokens (ics.ts) have no two words in a row.
    files: MAIL_FILES,
    rules: {
      'no-restricted-syntax': [
        'error',
        ...[
          `Literal[value=${WORDS}][value!=/^\\s*</]${NOT_FOR_THE_RECIPIENT}`,
          `TemplateElement[value.raw=${TEMPLATE_WORDS}][value.raw!=/^\\s*</]${NOT_FOR_THE_RECIPIENT}`,
          `Property[key.name=${MAIL_FIELDS}] > Literal[value=${LETTERS}]`,
          `Property[key.name=${MAIL_FIELDS}] > ConditionalExpression > Literal[value=${LETTERS}]`,
          `CallExpression[callee.name=/^(mailHtml|textToHtml)$/] > Literal[value=${LETTERS}]`,
        ].map((selector) => ({ selector, message: FROM_SERVER_CATALOGUE })),
      ],
    },
  },
  {
    files: ['test/**'],
    rules: {
      // Tests read JSON answers and drive pages loosely on purpose.
      '@typescript-eslint/no-explicit-any': 'off',
      'no-sequences': 'off',
      'no-console': 'off',
    },
  },
  {
    files: ['scripts/**', 'client/scripts/**', 'server/start.ts', 'server/build-client.ts'],
    rules: { 'no-console': 'off' },
  },
);
