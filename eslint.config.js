import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// SQL lives in repositories (issue 29 item 3; docs/architecture.md "File roles"): a statement is built and run in a
// *.repository.ts (or src/db/); an SQL fragment that statements compose (a predicate, an ordering) is a *.query.ts's,
// which runs nothing. Anywhere else, building SQL is an error.
const BUILDS_A_STATEMENT = {
  selector:
    'CallExpression[callee.property.name=/^(selectFrom|selectNoFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto|with|withRecursive)$/]',
  message: 'A statement belongs in the module\'s *.repository.ts (docs/architecture.md "File roles").',
};
const WRITES_SQL = [
  {
    selector: 'TaggedTemplateExpression[tag.name="sql"]',
    message: 'SQL belongs in a *.repository.ts, or a fragment in a *.query.ts (docs/architecture.md "File roles").',
  },
  {
    selector: 'MemberExpression[object.name="sql"]',
    message: 'SQL belongs in a *.repository.ts, or a fragment in a *.query.ts (docs/architecture.md "File roles").',
  },
];
const RUNS_A_STATEMENT = {
  selector: 'CallExpression[callee.property.name=/^(execute|executeTakeFirst|executeTakeFirstOrThrow|stream)$/]',
  message: "A *.query.ts builds fragments; the statement that runs them is a *.repository.ts's.",
};

export default tseslint.config(
  { ignores: ['node_modules', 'data', 'dist', 'test-artifacts', 'coverage'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read configuration in src/config.ts only.' },
      ],
    },
  },
  {
    files: ['src/config.ts', 'test/**', 'bench/**', 'bin/**', '*.config.ts'],
    rules: { 'no-restricted-properties': 'off' },
  },
  {
    files: ['src/**/*.ts'],
    ignores: [
      'src/**/*.repository.ts',
      'src/**/*.query.ts',
      'src/db/**',
      'src/**/*.test.ts',
      'src/**/*.test-support.ts',
    ],
    rules: { 'no-restricted-syntax': ['error', BUILDS_A_STATEMENT, ...WRITES_SQL] },
  },
  {
    files: ['src/**/*.query.ts'],
    rules: { 'no-restricted-syntax': ['error', BUILDS_A_STATEMENT, RUNS_A_STATEMENT] },
  },
  // dependency-cruiser reads its configuration as CommonJS.
  { files: ['**/*.cjs'], languageOptions: { sourceType: 'commonjs', globals: { module: 'writable' } } },
  // Rules that read the types (the TypeScript project of tsconfig.json): the code is mostly async, and a promise
  // nobody awaits or a check the types already decide is a bug more often than not. They add ~40 s to a lint run.
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-unnecessary-condition': 'error',
    },
  },
);
