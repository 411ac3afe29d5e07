// `npm run lint`: ESLint with typescript-eslint's recommended rules (decision 014); Prettier formats.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

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
