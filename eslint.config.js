// ESLint over the browser code (ui/**/*.js), run by scripts/test.sh beside TypeScript's checker.
import js from '@eslint/js';
import globals from 'globals';

export default [
  js.configs.recommended,
  {
    files: ['ui/**/*.js'],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: 'module',
      globals: { ...globals.browser },
    },
    rules: {
      // An unused argument documents a callback's signature (plotly's and Streamlit's handlers).
      'no-unused-vars': ['error', { args: 'none', caughtErrors: 'none' }],
    },
  },
];
