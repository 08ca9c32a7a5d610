// ESLint over the browser code (ui/**/*.js), run by scripts/test.sh beside TypeScript's checker.
import js from '@eslint/js';
import globals from 'globals';
import importX from 'eslint-plugin-import-x';

export default [
  js.configs.recommended,
  {
    files: ['ui/**/*.js'],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: 'module',
      globals: { ...globals.browser },
    },
    plugins: { 'import-x': importX },
    rules: {
      // No module imports itself through others: the layers of the browser code stand on each other
      // one way (ui/plot/canvas.js's header names the canvas's), and a loop makes a module see
      // another's bindings before they are set.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      // An unused argument documents a callback's signature (plotly's and Streamlit's handlers).
      'no-unused-vars': ['error', { args: 'none', caughtErrors: 'none' }],
    },
  },
];
