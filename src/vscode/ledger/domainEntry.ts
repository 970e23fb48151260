// The entry of dist/ledger.js: what the extension needs from the domain once a ledger opens.
// A bundle of its own (esbuild.mjs) so activation never compiles sql.js, Git and the services.
// The error classes come along so that errors thrown in this bundle are recognised (instanceof)
// against the classes of this bundle, not only against the extension bundle's copies.
export { createServices } from '../../app/services';
export { LedgerError } from '../../core/errors';
// The input schemas of the tools the editor's commands call, so its prompts validate with the
// same zod schemas and messages as the MCP tools and the CLI (zod stays out of activation).
export { taskCreateInput, taskUpdateInput } from '../../core/tasks/taskContracts';
export { memoryAddInput } from '../../core/memory/memoryContracts';
export { sessionEndInput, dodResults } from '../../core/sessions/sessionContracts';
export { worktreeCleanupInput } from '../../core/workers/workerContracts';
// The runner as a child process of the editor (Start Runner): loaded with the domain, on first use.
export { startRunnerProcess } from '../../app/runner/runnerProcess';
