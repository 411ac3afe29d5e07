// `npm run lint`: ESLint with typescript-eslint's recommended rules (decision 014); Prettier formats.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Letters of the scripts written so far (Latin with accents, Arabic): text a person reads. */
const LETTERS = '/[A-Za-z\\u00C0-\\u024F\\u0600-\\u06FF]/';
const FROM_CATALOGUE = "Visible text comes from a message catalogue: t('screen.meaning').";
/** Attributes a person reads or hears, and this app's components' props that are shown as text. */
const TEXT_ATTRIBUTES = '/^(alt|title|placeholder|label|loading|message|heading|aria-label|aria-description|aria-valuetext)$/';

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
      'client/ui/network-status.tsx',
      'client/visitor/pages/events.tsx',
      'client/visitor/pages/event.tsx',
      'client/visitor/pages/cancel.tsx',
      'client/visitor/pages/manage.tsx',
      'client/visitor/components/states.tsx',
      'client/visitor/components/ticket-qr.tsx',
      'client/visitor/components/when-lines.tsx',
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
