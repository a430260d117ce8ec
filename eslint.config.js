// The linter: typescript-eslint's type-aware recommendations over every TypeScript and JavaScript
// file of the repository. Formatting is Prettier's (`npm run format`), so no rule here speaks of it.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// The direction of dependencies (see the design's "house"): graph code imports nothing above
// graphql/, and a subgraph imports only the subgraphs below it (collective and bookings -> offers ->
// providers -> shared). An effect against that direction goes through a domain event in shared.
const ABOVE_THE_GRAPH = ['server', 'rest-facade', 'app', 'tests', 'scripts'];
const NOT_BELOW = {
  shared: ['providers', 'offers', 'bookings', 'collective'],
  providers: ['offers', 'bookings', 'collective'],
  offers: ['bookings', 'collective'],
  // Peers: they meet through federation keys and domain events, never by an import.
  bookings: ['collective'],
  collective: ['bookings'],
};

/**
 * Relative imports that climb out of a folder into one of `folders` (the graph's specifiers are all relative).
 * @param {string[]} folders
 */
function climbingInto(folders) {
  return `^(\\.\\./)+(${folders.join('|')})/`;
}

const aboveTheGraph = {
  regex: climbingInto(ABOVE_THE_GRAPH),
  message: 'The graph depends on nothing above graphql/: pass what it needs through its context or its ports.',
};

/** @param {string} folder @param {string[]} notBelow */
function notBelowMessage(folder, notBelow) {
  return folder === 'shared'
    ? 'graphql/shared depends on no subgraph: move what it needs into shared, or let the subgraph hand it in.'
    : `graphql/${folder} may not import ${notBelow.join(', ')}: publish a domain event from graphql/shared, or move the common part down.`;
}

/**
 * @param {{ regex: string, message: string }[]} patterns
 * @returns {import('eslint').Linter.RuleEntry}
 */
function restrictedImports(patterns) {
  return ['error', { patterns }];
}

// The platform (jobs, SQL runners, datetime text, outgoing calls, signing, images) lies below the
// whole domain: it imports nothing from the graph, the facade, the server or the portal.
const belowTheDomain = {
  regex: climbingInto(['graphql', ...ABOVE_THE_GRAPH]),
  message: 'platform/ is infrastructure below the domain: take what it needs as a parameter, never by an import.',
};

// A later block replaces an earlier one's options for the same rule, so each block lists every pattern of its folder.
const importDirection = [
  { files: ['platform/**'], rules: { 'no-restricted-imports': restrictedImports([belowTheDomain]) } },
  { files: ['graphql/**'], rules: { 'no-restricted-imports': restrictedImports([aboveTheGraph]) } },
  ...Object.entries(NOT_BELOW).map(([folder, notBelow]) => ({
    files: [`graphql/${folder}/**`],
    rules: {
      'no-restricted-imports': restrictedImports([
        aboveTheGraph,
        { regex: climbingInto(notBelow), message: notBelowMessage(folder, notBelow) },
      ]),
    },
  })),
];

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'dist-tools/', 'build/', 'public/build/', 'var/', '.cache/', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node },
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // An async implementation of an interface that returns a promise need not await anything.
      '@typescript-eslint/require-await': 'off',
      // Remix loaders answer 404s and redirects by throwing a Response.
      '@typescript-eslint/only-throw-error': [
        'error',
        {
          allow: [
            { from: 'lib', name: 'Response' },
            { from: 'package', package: '@remix-run/router', name: 'DataWithResponseInit' },
          ],
        },
      ],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  {
    // The browser's script runs in the page.
    files: ['app/client/**'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // Tests read JSON answers (`response.body` is any) and check them against the OpenAPI document.
    files: ['tests/**'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    // tsc checks the build scripts' JSDoc types, but the casts that type their dynamic imports of
    // the compiled server are invisible to these rules (ESTree drops the parentheses that carry them).
    files: ['scripts/**/*.mjs'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
    },
  },
  ...importDirection,
  prettier,
);
