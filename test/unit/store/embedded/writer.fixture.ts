// A child process that opens a store and inserts rows, printing each acknowledged id on stdout.
// argv: dbPath label count [checkpointRecords]
import { LedgerStore } from '../../../../src/store/embedded/ledgerStore';

async function main(): Promise<void> {
  const [dbPath, label, countText, checkpointText] = process.argv.slice(2);
  const store = await LedgerStore.open({
    dbPath,
    checkpointRecords: checkpointText ? Number(checkpointText) : undefined,
  });
  const count = Number(countText);
  for (let i = 0; i < count || count < 0; i++) {
    const name = `${label}-${i}`;
    const now = new Date().toISOString();
    await store.write((tx) =>
      tx.run('INSERT INTO workflows (name, created_at, updated_at) VALUES (?, ?, ?)', [name, now, now]),
    );
    process.stdout.write(`${name}\n`);
  }
  store.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
