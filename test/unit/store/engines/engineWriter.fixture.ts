// A child process on one ledger (an image path or a postgres:// URL, password in the environment).
// argv: location mode [args…]
//   writes <label> <count>   inserts <count> workflows named <label>-<i> (each write also appends an
//                            event), printing each acknowledged name; count -1 = until killed
//   hold                     starts a write, inserts a row named 'half', prints 'inside' and never
//                            finishes (to be killed mid-transaction)
//   ping                     for each line read on stdin, performs one write and prints
//                            'done <seq> <epoch ms before the write> <epoch ms after it>'
import * as readline from 'node:readline';
import { openEngine } from '../../../../src/store/openEngine';

const now = (): number => performance.timeOrigin + performance.now();

async function main(): Promise<void> {
  const [location, mode, ...args] = process.argv.slice(2);
  const engine = await openEngine(location, { migrate: true, retryMs: 30_000 });
  if (mode === 'writes') {
    const [label, countText] = args;
    const count = Number(countText);
    for (let i = 0; i < count || count < 0; i++) {
      const name = `${label}-${i}`;
      await engine.write(async (tx) => {
        const id = await tx.insert('INSERT INTO workflows (name, created_at, updated_at) VALUES (?, ?, ?)', [
          name,
          't',
          't',
        ]);
        await tx.insert(
          "INSERT INTO events (ts, kind, workflow_id, payload) VALUES (?, 'workflow.started', ?, '{}') RETURNING seq",
          ['t', id],
        );
      });
      process.stdout.write(`${name}\n`);
    }
  } else if (mode === 'hold') {
    await engine.write(async (tx) => {
      await tx.insert('INSERT INTO workflows (name, created_at, updated_at) VALUES (?, ?, ?)', ['half', 't', 't']);
      process.stdout.write('inside\n');
      await new Promise(() => undefined);
    });
  } else if (mode === 'ping') {
    process.stdout.write('ready\n');
    for await (const _line of readline.createInterface({ input: process.stdin })) {
      const before = now();
      await engine.write((tx) =>
        tx.run('INSERT INTO workflows (name, created_at, updated_at) VALUES (?, ?, ?)', ['ping', 't', 't']),
      );
      process.stdout.write(`done ${engine.seq} ${before} ${now()}\n`);
    }
  }
  await engine.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
