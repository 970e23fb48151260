// Lint: typescript-eslint's recommended rules plus the import boundaries of STYLE.md.
// Which folder a file lives in says what it may import:
//   only src/vscode/** and src/extension.ts import `vscode`
//   only src/mcp/** imports the MCP SDK
//   only src/store/** imports sql.js and the PostgreSQL driver (pg, pg-connection-string)
//   only src/git/** imports simple-git
//   only src/processes/** (agent CLIs, child runtimes) and src/git/** (git) start processes:
//     node:child_process is refused elsewhere in src/, except one older one-off use listed below
//   src/core/** imports none of them, nor the layers above it: nothing outside src/core/;
//     inside core, its own layers (ground, domain, orchestrator, runtime, Board: see below)
//   the faces (src/cli/**, src/vscode/**, src/mcp/**, src/web/**, src/extension.ts, and the views'
//     models src/views/**) never import src/store/ or
//     src/git/: they see only Services (src/app/services.ts is the composition root and may);
//     the exceptions are listed below, each with its reason
//   webview-ui/** imports only the shared protocol types (and the pure formatting helpers)
//   src/shared/protocol.ts is types only: it imports core's types (`import type`) and nothing else
import tseslint from 'typescript-eslint';

const vscode = { name: 'vscode', message: 'Only src/vscode/** and src/extension.ts may import vscode.' };
const sdk = {
  group: ['@modelcontextprotocol/*', '@modelcontextprotocol/*/*'],
  message: 'Only src/mcp/** may import the MCP SDK.',
};
const sqljs = { name: 'sql.js', message: 'Only src/store/** may import sql.js.' };
const pg = [
  { name: 'pg', message: 'Only src/store/** may import the PostgreSQL driver.' },
  { name: 'pg-connection-string', message: 'Only src/store/** may import the PostgreSQL driver.' },
];
const simpleGit = { name: 'simple-git', message: 'Only src/git/** may import simple-git.' };
const childProcess = [
  {
    name: 'node:child_process',
    message: 'Only src/processes/** (and src/git/** for git) start processes: use the process supervisor.',
  },
  {
    name: 'child_process',
    message: 'Only src/processes/** (and src/git/** for git) start processes: use the process supervisor.',
  },
];
// An older use that predates the supervisor: the editor's Node version check. New code goes
// through src/processes/ or src/git/.
const childProcessUsers = ['src/vscode/mcp/serverLaunch.ts'];
const upperLayers = {
  group: [
    '**/store/*',
    '**/git/*',
    '**/processes/*',
    '**/mcp/*',
    '**/cli/*',
    '**/vscode/*',
    '**/app/*',
    '**/extension',
  ],
  message: 'src/core/** is plain TypeScript: depend on a port in core/ports/ instead of a layer.',
};

// Inside core, the layers of docs/architecture.md: the ground (core/*.ts, ports, files, contracts,
// events, limits) imports nothing above it; the domain (tasks … pipelines) never imports the orchestrator
// (coordination, scheduling), the agent runtime or the Board; the orchestrator never imports the
// runtime or the Board; the runtime never imports the Board. One read crosses on purpose, named in
// the regex: a task's dependencies live in its workflow's plan graph (coordination/plans/). The
// scheduler's start gate reaches the domain from the composition root (core/tasks/startGate.ts).
const into = (folders, message) => ({ regex: `^(\\.\\.?/)+(${folders})(/|$)`, message });
const domainFolders = 'tasks|workflows|sessions|workers|agents|memory|costs|pipelines|access';
const aboveGround = into(
  `${domainFolders}|coordination|scheduling|runtime|board`,
  'The ground of core (core/*.ts, ports, files, contracts, events, limits) imports nothing above it.',
);
const aboveDomain = into(
  'coordination/(?!plans/)|scheduling|runtime|board',
  'The domain (tasks … pipelines) never imports the orchestrator, the agent runtime or the Board.',
);
const aboveOrchestrator = into(
  'runtime|board',
  'The orchestrator (coordination, scheduling) never imports the agent runtime or the Board.',
);
const aboveRuntime = into(
  'board',
  'The agent runtime never imports the Board (the Board reads everything, not the reverse).',
);
const coreGround = [
  'src/core/*.ts',
  'src/core/ports/**/*.ts',
  'src/core/files/**/*.ts',
  'src/core/contracts/**/*.ts',
  'src/core/events/**/*.ts',
  'src/core/limits/**/*.ts',
];
const coreDomain = domainFolders.split('|').map((f) => `src/core/${f}/**/*.ts`);

const storeOrGit = ['store', 'git'].flatMap((layer) =>
  ['..', '../..', '../../..', '../../../..'].flatMap((up) => [`${up}/${layer}`, `${up}/${layer}/*`]),
);
const innerLayers = {
  group: storeOrGit,
  message: 'Faces (CLI, extension, MCP server) reach the store and Git only through Services (src/app/services.ts).',
};
// Faces that still import store/ — each with why (none: `db init|migrate|copy|check|repair`
// reach the store through src/app/storeAdmin.ts, as everything else goes through src/app/services.ts):
const faceStoreUsers = [];
const webviewOnlyProtocol = {
  regex: '^(\\.\\./)+src/(?!shared/protocol$|core/format$)',
  message:
    'webview-ui/** runs in the browser: it imports only src/shared/protocol (types) and the pure src/core/format helpers.',
};

// The protocol is one definition of each type: it reuses core's models, as types only, so the
// webview bundle gets nothing from core; and the webview takes the protocol as types only.
const protocolImportsCoreTypes = [
  { regex: '^\\.\\./(?!core/)', message: 'src/shared/protocol.ts imports only core types.' },
  {
    regex: '^\\.\\./core/',
    allowTypeImports: true,
    message: 'src/shared/protocol.ts is types only: `import type` from core.',
  },
];
const webviewTakesProtocolTypes = [
  {
    regex: '^(\\.\\./)+src/shared/protocol$',
    allowTypeImports: true,
    message: 'webview-ui/** takes the shared protocol as types only (`import type`).',
  },
];

/** A config block for listed exception files, or none when the list is empty (eslint refuses `files: []`). */
function exceptions(files, rules) {
  return files.length ? [{ files, rules }] : [];
}

function restrict(paths, patterns) {
  return { 'no-restricted-imports': ['error', { paths, patterns }] };
}

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.vscode-test/**', 'out/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'separate-type-imports' }],
      'no-restricted-syntax': [
        'error',
        { selector: 'ExportDefaultDeclaration', message: 'No default exports (STYLE.md habit 9).' },
      ],
    },
  },
  // Tests and benchmarks read loosely typed JSON (tool results, schemas) all the time.
  { files: ['test/**/*.ts', 'bench/**/*.ts'], rules: { '@typescript-eslint/no-explicit-any': 'off' } },
  { files: ['src/**/*.ts'], rules: restrict([vscode, sqljs, ...pg, simpleGit, ...childProcess], [sdk]) },
  {
    files: ['src/core/**/*.ts'],
    rules: restrict([vscode, sqljs, ...pg, simpleGit, ...childProcess], [sdk, upperLayers]),
  },
  {
    files: coreGround,
    rules: restrict([vscode, sqljs, ...pg, simpleGit, ...childProcess], [sdk, upperLayers, aboveGround]),
  },
  {
    files: coreDomain,
    rules: restrict([vscode, sqljs, ...pg, simpleGit, ...childProcess], [sdk, upperLayers, aboveDomain]),
  },
  {
    files: ['src/core/coordination/**/*.ts', 'src/core/scheduling/**/*.ts'],
    rules: restrict([vscode, sqljs, ...pg, simpleGit, ...childProcess], [sdk, upperLayers, aboveOrchestrator]),
  },
  {
    files: ['src/core/runtime/**/*.ts'],
    rules: restrict([vscode, sqljs, ...pg, simpleGit, ...childProcess], [sdk, upperLayers, aboveRuntime]),
  },
  {
    files: ['src/vscode/**/*.ts', 'src/extension.ts'],
    rules: restrict([sqljs, ...pg, simpleGit, ...childProcess], [sdk, innerLayers]),
  },
  { files: ['src/mcp/**/*.ts'], rules: restrict([vscode, sqljs, ...pg, simpleGit, ...childProcess], [innerLayers]) },
  {
    files: ['src/cli/**/*.ts'],
    rules: restrict([vscode, sqljs, ...pg, simpleGit, ...childProcess], [sdk, innerLayers]),
  },
  // The web board's server is a face like the CLI; the views' models (src/views/) serve every
  // host of the views (the editor's webviews, the web board, the MCP Apps) and see only Services.
  {
    files: ['src/web/**/*.ts', 'src/views/**/*.ts'],
    rules: restrict([vscode, sqljs, ...pg, simpleGit, ...childProcess], [sdk, innerLayers]),
  },
  { files: ['src/store/**/*.ts'], rules: restrict([vscode, simpleGit, ...childProcess], [sdk]) },
  { files: ['src/git/**/*.ts'], rules: restrict([vscode, sqljs, ...pg], [sdk]) },
  { files: ['src/processes/**/*.ts'], rules: restrict([vscode, sqljs, ...pg, simpleGit], [sdk]) },
  {
    files: childProcessUsers.filter((f) => f.startsWith('src/vscode/')),
    rules: restrict([sqljs, ...pg, simpleGit], [sdk, innerLayers]),
  },
  ...exceptions(
    faceStoreUsers.filter((f) => f.startsWith('src/cli/')),
    restrict([vscode, sqljs, ...pg, simpleGit, ...childProcess], [sdk]),
  ),
  ...exceptions(
    faceStoreUsers.filter((f) => f.startsWith('src/mcp/')),
    restrict([vscode, sqljs, ...pg, simpleGit, ...childProcess], []),
  ),
  ...exceptions(
    faceStoreUsers.filter((f) => f.startsWith('src/vscode/')),
    restrict([sqljs, ...pg, simpleGit, ...childProcess], [sdk]),
  ),
  {
    files: ['webview-ui/**/*.ts'],
    rules: {
      ...restrict([vscode, sqljs, ...pg, simpleGit, ...childProcess], [sdk, webviewOnlyProtocol]),
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: webviewTakesProtocolTypes }],
    },
  },
  {
    files: ['src/shared/protocol.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: protocolImportsCoreTypes }] },
  },
);
