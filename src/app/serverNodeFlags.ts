/**
 * Node flags every launch of `agent-ledger mcp serve` that we write carries, before the script:
 * the editor's MCP registration, the client config files, "Copy MCP server command", the runner's
 * and the child runtimes' wiring (docs/performance.md, "Memory"; each flag's figure comes from
 * bench/serverFlags.bench.ts, which compares sets of them in one run).
 *
 * - `--max-semi-space-size=1` caps V8's young generation at 1 MiB per semi-space. A server spends
 *   its life idle between small calls; the default lets start-up grow the young generation to
 *   16 MiB per semi-space and keeps it, 15–20 MiB of RSS per client for nothing.
 *
 * Measured and left out: `--v8-pool-size=1` (one V8 background thread instead of four) saves
 * ~1.8 MiB at rest but made task_get 2.4–2.6× slower under load in two runs. `--liftoff-only`
 * (-16 MiB) is not here: sql.js's WebAssembly is compiled with V8's baseline compiler only: `mcp serve` sets that itself
 * (src/app/storeWarmUp.ts), as Node refuses the flag in NODE_OPTIONS and hand-written launches should
 * get it too.
 *
 * V8 sizes its heap before any script runs (`v8.setFlagsFromString`
 * later has no effect on the heap), so these must be arguments. Electron run as Node (the
 * editor's own runtime) takes V8 flags the same way.
 */
export const serverNodeFlags: readonly string[] = ['--max-semi-space-size=1'];
