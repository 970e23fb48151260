// One of the processes opening the same workspaces at the same moment (builtInAgents.test.ts):
// after "go" on stdin, opens each workspace's ledger in turn, lists its agents and closes it.
import { createServices } from '../../../../src/app/services';

const workspaces = process.argv.slice(2);

process.stdin.once('data', () => {
  void (async () => {
    for (const workspace of workspaces) {
      const services = await createServices({ workspace });
      try {
        const { problems } = await services.agents.list();
        for (const p of problems) console.log(`problem ${p.file}: ${p.message}`);
      } finally {
        await services.dispose();
      }
    }
    console.log('done');
  })().catch((err) => {
    console.error(err);
    process.exit(1);
  });
});
console.log('ready');
