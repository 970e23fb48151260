// A client that streams writes to a fresh server process and prints each acknowledged one.
// argv: workspace label. Prints "SERVER <pid>" first, then "ACK <task-id> <label>-<n>" per write.
import { connect } from '../helpers/mcpClient';

async function main(): Promise<void> {
  const [workspace, label] = process.argv.slice(2);
  const c = await connect(workspace);
  const pid = (c.client.transport as unknown as { pid: number | null }).pid;
  process.stdout.write(`SERVER ${pid}\n`);
  const { workflow_id } = await c.call<{ workflow_id: string }>('start_workflow', { name: `stream ${label}` });
  for (let n = 0; ; n++) {
    const { task_id } = await c.call<{ task_id: string }>('start_task', {
      workflow_id,
      name: `${label}-${n}`,
      goal: 'g',
    });
    const message = `${task_id} ${label}-${n}`;
    await c.call('log_milestone', { task_id, message });
    process.stdout.write(`ACK ${message}\n`);
  }
}

main().catch(() => process.exit(0)); // the server was killed: that is the point
