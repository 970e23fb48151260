// Lint: typescript-eslint's recommended rules plus the import boundaries of STYLE.md.
// Which folder a file lives in says what it may import:
//   only src/vscode/** and src/extension.ts import `vscode`
//   only src/mcp/** imports the MCP SDK
//   only src/store/** imports sql.js and the PostgreSQL driver (pg, pg-connection-string)
//   only src/git/** imports simple-git
//   only src/processes/** (agent CLIs, child runtimes) and src/git/** (git) start processes:
//     node:child_process is refused elsewhere in src/, except two older one-off uses listed below
//   src/core/** imports none of them, nor the layers above it
import tseslint from 'typescript-eslint';

const vscode = { name: 'vscode', message: 'Only src/vscode/** and src/extension.ts may import vscode.' };
const sdk = { group: ['@modelcontextprotocol/sdk', '@modelcontextprotocol/sdk/*'], message: 'Only src/mcp/** may import the MCP SDK.' };
const sqljs = { name: 'sql.js', message: 'Only src/store/** may import sql.js.' };
const pg = [
  { name: 'pg', message: 'Only src/store/** may import the PostgreSQL driver.' },
  { name: 'pg-connection-string', message: 'Only src/store/** may import the PostgreSQL driver.' },
];
const simpleGit = { name: 'simple-git', message: 'Only src/git/** may import simple-git.' };
const childProcess = [
  { name: 'node:child_process', message: 'Only src/processes/** (and src/git/** for git) start processes: use the process supervisor.' },
  { name: 'child_process', message: 'Only src/processes/** (and src/git/** for git) start processes: use the process supervisor.' },
];
// Older uses that predate the supervisor: a `git branch --show-current` probe and the editor's
// Node version check. New code goes through src/processes/ or src/git/.
const childProcessUsers = ['src/cli/commands/pipelineCommands.ts', 'src/vscode/mcp/serverLaunch.ts'];
const upperLayers = {
  group: ['**/store/*', '**/git/*', '**/processes/*', '**/mcp/*', '**/cli/*', '**/vscode/*', '**/services', '**/extension'],
  message: 'src/core/** is plain TypeScript: depend on a port in core/ports.ts instead of a layer.',
};

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
      'no-restricted-syntax': ['error', { selector: 'ExportDefaultDeclaration', message: 'No default exports (STYLE.md habit 9).' }],
    },
  },
  // Tests and benchmarks read loosely typed JSON (tool results, schemas) all the time.
  { files: ['test/**/*.ts', 'bench/**/*.ts'], rules: { '@typescript-eslint/no-explicit-any': 'off' } },
  { files: ['src/**/*.ts'], rules: restrict([vscode, sqljs, ...pg, simpleGit, ...childProcess], [sdk]) },
  { files: ['src/core/**/*.ts'], rules: restrict([vscode, sqljs, ...pg, simpleGit, ...childProcess], [sdk, upperLayers]) },
  { files: ['src/vscode/**/*.ts', 'src/extension.ts'], rules: restrict([sqljs, ...pg, simpleGit, ...childProcess], [sdk]) },
  { files: ['src/mcp/**/*.ts'], rules: restrict([vscode, sqljs, ...pg, simpleGit, ...childProcess], []) },
  { files: ['src/store/**/*.ts'], rules: restrict([vscode, simpleGit, ...childProcess], [sdk]) },
  { files: ['src/git/**/*.ts'], rules: restrict([vscode, sqljs, ...pg], [sdk]) },
  { files: ['src/processes/**/*.ts'], rules: restrict([vscode, sqljs, ...pg, simpleGit], [sdk]) },
  { files: childProcessUsers.filter((f) => f.startsWith('src/cli/')), rules: restrict([vscode, sqljs, ...pg, simpleGit], [sdk]) },
  { files: childProcessUsers.filter((f) => f.startsWith('src/vscode/')), rules: restrict([sqljs, ...pg, simpleGit], [sdk]) },
  { files: ['webview-ui/**/*.ts'], rules: restrict([vscode, sqljs, ...pg, simpleGit, ...childProcess], [sdk]) },
);
