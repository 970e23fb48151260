import * as v8 from 'node:v8';
import { parseLedgerLocation } from './store/location';

/**
 * Starts compiling sql.js's WebAssembly at the start of an `mcp serve` process whose ledger is
 * embedded, so that it compiles on another core while this one answers initialize and tools/list
 * (docs/performance.md). Only the MCP server process calls it: it changes a V8 flag of the whole
 * process, which the editor's shared extension host must not do.
 *
 * V8 compiles WebAssembly lazily by default: each SQLite function the first time it runs, on the
 * main thread, inside the first statements of the first tool call (~100–250 ms for opening a
 * ledger). Compiled eagerly, the whole module is compiled by V8's background threads during
 * `WebAssembly.instantiate`, and the first statements run at once. Measured at 1,000 tasks, it
 * also leaves the process about 10 MiB less resident at rest than lazy compilation and tiering.
 * A failure here is left for the opening itself to report.
 */
export function warmUpStore(dbPath: string | undefined): void {
  try {
    if (dbPath !== undefined && parseLedgerLocation(dbPath).kind !== 'embedded') return;
  } catch {
    return; // a bad location is the opening's error to report
  }
  v8.setFlagsFromString('--no-wasm-lazy-compilation');
  void import('./store/sqlJs.js').then((m) => m.loadSqlJs()).catch(() => undefined);
}
