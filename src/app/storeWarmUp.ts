import * as v8 from 'node:v8';
import { parseLedgerLocation } from '../store/location';

/**
 * Starts loading sql.js at the start of an `mcp serve` process whose ledger is embedded (reading
 * its WebAssembly file, evaluating its glue, instantiating the module), so that this happens while
 * the server answers initialize and tools/list rather than inside the first tool call
 * (docs/performance.md). A failure here is left for the opening itself to report.
 *
 * It also has V8 compile the module with its baseline compiler only (`--liftoff-only`: Liftoff,
 * lazily, each SQLite function the first time it runs; no optimizing tier): compiling it eagerly
 * kept every function's code and the optimizing compiler's working memory for the life of the
 * server, and reads and writes are no slower (docs/performance.md, "Memory"). Set here rather than in the
 * launch arguments because Node refuses it in NODE_OPTIONS and every launch, ours or hand-written,
 * should get it. Only the MCP server process calls this: a V8 flag is the whole process's, which
 * the editor's shared extension host must not change.
 */
export function warmUpStore(dbPath: string | undefined): void {
  try {
    if (dbPath !== undefined && parseLedgerLocation(dbPath).kind !== 'embedded') return;
  } catch {
    return; // a bad location is the opening's error to report
  }
  v8.setFlagsFromString('--liftoff-only');
  void import('../store/embedded/sqlJs.js').then((m) => m.loadSqlJs()).catch(() => undefined);
}
