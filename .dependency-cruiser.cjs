// The seams of the code (issue 29; docs/architecture.md "Layers"), checked by `npm run lint`:
//   lib  →  db, jobs, events, platform, mail, files, render, errors, config  →  modules/*  →  composition
// (app, server, main, cli, deps, bootstrap, registry, features, web). A layer imports only from itself and the
// layers before it; a module imports another module's public face (index.ts, and its *.schemas.ts), never another
// of its files. Type-only imports count: a type import is still a seam. The code breaks none of these rules: any
// violation fails lint.
const FOUNDATION =
  '^src/(db|jobs|events|platform|mail|files|render)/|^src/(errors|config|config-push|config-variables)\\.ts$';
const COMPOSITION = '^src/(app|server|main|deps|bootstrap|registry|features)\\.ts$|^src/(cli|web)/';
const TESTS = '\\.test\\.ts$|\\.test-support\\.ts$|^test/';

module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      comment: 'An import cycle (type-only included): the files cannot be understood, or loaded, one at a time.',
      from: { pathNot: TESTS },
      to: { circular: true },
    },
    {
      name: 'task-definitions-import-no-code',
      severity: 'error',
      comment:
        'A *.tasks.ts declares job types (name, payload, options) and imports only jobs/task.ts: the services that enqueue them import it, and what runs a job lives in *.handlers.ts, so no service imports its own runner back.',
      from: { path: '\\.tasks\\.ts$' },
      to: { path: '^src/', pathNot: '^src/jobs/task\\.ts$' },
    },
    {
      name: 'lib-imports-nothing-of-ours',
      severity: 'error',
      comment: 'src/lib is the bottom layer: pure helpers that know nothing of the project.',
      from: { path: '^src/lib/', pathNot: TESTS },
      to: { path: '^src/', pathNot: '^src/lib/' },
    },
    {
      name: 'foundation-imports-no-module',
      severity: 'error',
      comment: 'db, jobs, events, platform and the other shared pieces sit below the feature modules.',
      from: { path: FOUNDATION, pathNot: TESTS },
      to: { path: '^src/modules/' },
    },
    {
      name: 'nothing-imports-composition',
      severity: 'error',
      comment: 'app, server, main, cli, deps and bootstrap put the pieces together; no piece imports them.',
      from: { path: '^src/', pathNot: `${COMPOSITION}|${TESTS}` },
      to: { path: COMPOSITION },
    },
    {
      name: 'modules-meet-at-their-faces',
      severity: 'error',
      comment:
        'A module (and the sign-in pages of src/web) imports another module through its face, index.ts, or the record shapes of its *.schemas.ts: never its repository, service or any other file, which can change behind the face.',
      from: { path: '^src/(modules/([^/]+)|web)/', pathNot: TESTS },
      to: {
        path: '^src/modules/[^/]+/',
        pathNot: ['^src/modules/$2/', '^src/modules/[^/]+/index\\.ts$', '\\.schemas\\.ts$'],
      },
    },
    {
      name: 'code-imports-no-tests',
      severity: 'error',
      comment: 'Shipped code never imports a test or test support (*.test-support.ts, test/).',
      from: { path: '^src/', pathNot: TESTS },
      to: { path: TESTS },
    },
    {
      name: 'test-support-imports-no-test-dir',
      severity: 'error',
      comment:
        "Test support that lives beside the code (*.test-support.ts) imports nothing from test/: it is the code's own.",
      from: { path: '\\.test-support\\.ts$' },
      to: { path: '^test/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist|data|coverage)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
