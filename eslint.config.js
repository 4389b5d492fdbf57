import fs from 'node:fs';
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import serverLayering from './packages/server/lint/layering.js';

// Web features stay independent: one feature never imports another (shared code lives in
// src/components and src/lib; pages that combine features live in src/app).
const webFeatures = fs.readdirSync(new URL('./packages/web/src/features', import.meta.url));
const featureBoundaries = webFeatures.map((feature) => ({
  files: [`packages/web/src/features/${feature}/**`],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            regex: `^(\\.\\./)+(${webFeatures.filter((other) => other !== feature).join('|')})/`,
            message: 'Features do not import each other: move shared code to src/components or src/lib, or compose in src/app.',
          },
        ],
      },
    ],
  },
}));

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', 'test-artifacts/**', '.ci/node24/**', 'packages/server/src/db/migrations/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      eqeqeq: ['error', 'smart'],
      'no-console': 'off',
    },
  },
  {
    files: ['packages/web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
  },
  ...featureBoundaries,
  {
    files: ['packages/server/src/**/*.ts'],
    plugins: { server: serverLayering },
    rules: {
      'server/layering': 'error',
    },
  },
);
