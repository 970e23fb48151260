// Preloaded into a server by bench/memoryBreakdown.bench.ts (`node --import memoryProbe.mjs …`): on
// SIGUSR2 it writes process.memoryUsage() and V8's heap spaces to <tmp>/agent-ledger-memprobe-<pid>.json;
// on SIGTTIN a heap snapshot beside it (then an empty .snapdone file). It allocates nothing until asked.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as v8 from 'node:v8';

const base = path.join(os.tmpdir(), `agent-ledger-memprobe-${process.pid}`);
process.on('SIGUSR2', () => {
  const spaces = Object.fromEntries(
    v8.getHeapSpaceStatistics().map((s) => [s.space_name, { size: s.space_size, used: s.space_used_size }]),
  );
  fs.writeFileSync(`${base}.json`, JSON.stringify({ usage: process.memoryUsage(), spaces }));
});
process.on('SIGTTIN', () => {
  v8.writeHeapSnapshot(`${base}.heapsnapshot`);
  fs.writeFileSync(`${base}.snapdone`, '');
});
