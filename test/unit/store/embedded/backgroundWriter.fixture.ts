// A child process that writes rows without end into a store whose checkpoints all run in a worker
// thread (every `checkpointRecords` records), printing each acknowledged name on stdout.
// argv: dbPath label checkpointRecords
import { LedgerStore } from '../../../../src/store/embedded/ledgerStore';

async function main(): Promise<void> {
  const [dbPath, label, checkpointText] = process.argv.slice(2);
  const store = await LedgerStore.open({
    dbPath,
    checkpointRecords: Number(checkpointText),
    backgroundCheckpointBytes: 0,
  });
  for (let i = 0; ; i++) {
    const name = `${label}-${i}`;
    await store.write((tx) =>
      tx.run("INSERT INTO workflows (name, created_at, updated_at) VALUES (?, 'x', 'x')", [name]),
    );
    process.stdout.write(`${name}\n`);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
