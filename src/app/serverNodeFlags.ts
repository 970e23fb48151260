/**
 * Node flags every launch of `agent-ledger mcp serve` that we write carries, before the script:
 * the editor's MCP registration, the client config files, "Copy MCP server command", the runner's
 * and the child runtimes' wiring (docs/performance.md, "Memory", has each flag's figures and the
 * flags measured and left out).
 *
 * - `--max-semi-space-size=1` caps V8's young generation at 1 MiB per semi-space. A server spends
 *   its life idle between small calls; the default lets start-up grow the young generation and
 *   keeps it, RSS per client for nothing.
 *
 * `--liftoff-only` is not here: `mcp serve` sets it itself (src/app/storeWarmUp.ts), as Node
 * refuses the flag in NODE_OPTIONS and hand-written launches should get it too.
 *
 * V8 sizes its heap before any script runs (`v8.setFlagsFromString`
 * later has no effect on the heap), so these must be arguments. Electron run as Node (the
 * editor's own runtime) takes V8 flags the same way.
 */
export const serverNodeFlags: readonly string[] = ['--max-semi-space-size=1'];
