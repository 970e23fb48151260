// The baseline of bench/watch.bench.ts: the store's own change wait in a process of its own, and
// nothing else — one line on stdout each time another process's write wakes it. What
// `agent-ledger watch` adds on top (reading the events, their tasks, formatting) is the difference.
// argv: workspace [--db URL]
import { createServices } from '../../src/app/services';

async function main(): Promise<void> {
  const [workspace] = process.argv.slice(2);
  const db = process.argv.includes('--db') ? process.argv[process.argv.indexOf('--db') + 1] : undefined;
  const services = await createServices({ workspace, dbPath: db, readonly: true });
  let seq = services.engine.seq;
  process.stdout.write('ready\n');
  for (;;) {
    const r = await services.engine.waitForChange(seq, { timeoutMs: 50_000 });
    if (r.seq > seq) process.stdout.write(`woke ${r.seq}\n`);
    seq = r.seq;
  }
}

void main();
