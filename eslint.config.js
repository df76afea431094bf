import path from 'node:path';
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

/*
 * The layers of the web app (src/web/features/README.md): app → features → kit → components → lib. A layer imports
 * itself and the layers after it (and src/shared); a feature never imports another feature. Test helpers
 * (src/web/test) and the app may import anything.
 */
const WEB_ROOT = path.resolve('src/web');
const LAYER_MAY_IMPORT = {
  app: null,
  test: null,
  features: ['kit', 'components', 'lib'],
  kit: ['components', 'lib'],
  components: ['lib'],
  lib: [],
};

/** The layer of a file under src/web ('features/<name>' for a feature), or null outside src/web. */
function webLayerOf(file) {
  const rel = path.relative(WEB_ROOT, file);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return null;
  const [top, second] = rel.split(path.sep);
  if (top === 'features') return { layer: 'features', name: `features/${second}` };
  if (top in LAYER_MAY_IMPORT) return { layer: top, name: top };
  return { layer: 'app', name: top };
}

const layersRule = {
  meta: {
    type: 'problem',
    docs: { description: 'Keeps the import arrows of the web app: layers point down, features never at each other.' },
    schema: [],
  },
  create(context) {
    const from = webLayerOf(context.filename);
    if (!from) return {};
    const check = (node, spec) => {
      if (typeof spec !== 'string' || !spec.startsWith('.')) return;
      const to = webLayerOf(path.resolve(path.dirname(context.filename), spec));
      if (!to || to.name === from.name) return;
      // Test helpers (src/web/test) serve the tests and test fixtures of every layer.
      const isTestFile = /\.test\.tsx?$/.test(context.filename) || context.filename.split(path.sep).includes('test');
      if (to.layer === 'test' && isTestFile) return;
      const allowed = LAYER_MAY_IMPORT[from.layer];
      if (allowed === null) return;
      if (to.layer === 'features' && from.layer === 'features') {
        context.report({
          node,
          message: `${from.name} imports ${to.name}: a feature never imports another feature (compose them in app/routes).`,
        });
      } else if (!allowed.includes(to.layer)) {
        context.report({
          node,
          message: `src/web/${from.name} may not import src/web/${to.name} (layers: app → features → kit → components → lib).`,
        });
      }
    };
    return {
      ImportDeclaration: (node) => check(node.source, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node.source, node.source.value),
      ExportAllDeclaration: (node) => check(node.source, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node.source, node.source.value),
    };
  },
};

export default tseslint.config(
  {
    ignores: [
      'dist',
      'dist-server',
      'node_modules',
      'data',
      'test-results',
      'playwright-report',
      'bench/results',
      'bench/.cache',
      // Generated code (npm run openapi:types), checked by the test that uses it, not written by hand.
      'src/generated',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  // Plain Node scripts (tooling, benchmarks, e2e support).
  {
    files: ['**/*.mjs', '**/*.cjs'],
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
        fetch: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        AbortController: 'readonly',
      },
    },
  },
  // The one-way arrows of DESIGN.md: shared imports neither side; web and server never import each other.
  {
    files: ['src/shared/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [{ group: ['**/server/**', '**/web/**', 'node:*'], message: 'src/shared imports only libraries.' }],
        },
      ],
    },
  },
  {
    files: ['src/web/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/server/**', 'node:*'], message: 'The web app never imports the server.' }] },
      ],
    },
  },
  {
    files: ['src/web/**/*.{ts,tsx}'],
    plugins: { folio: { rules: { layers: layersRule } } },
    rules: { 'folio/layers': 'error' },
  },
  // No import cycles anywhere in the source (a lazy import counts: it makes the chunks depend on each other too).
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      ...importX.flatConfigs.typescript.settings,
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: 'tsconfig.json' })],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    files: ['src/server/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/web/**'], message: 'The server never imports the web app.' }] },
      ],
    },
  },
);
