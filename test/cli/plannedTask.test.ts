import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServices } from '../../src/app/services';
import { cli, cliJson } from '../helpers/cli';
import { ledgerEnv } from '../helpers/testLedger';
import { tempRepo } from '../helpers/tmp';

/** `agent-ledger task create … --workflow wf-N`: a planned task of a workflow, as a person adds one. */
test('task create --workflow adds a planned, not started task to a workflow; --workflow with --agent is refused', async () => {
  const repo = tempRepo({ 'README.md': '# r\n' });
  const env = ledgerEnv(repo);
  const services = await createServices({
    workspace: repo,
    dbPath: env.AGENT_LEDGER_DB,
    dbPassword: env.AGENT_LEDGER_DB_PASSWORD,
  });
  const { workflow_id } = await services.workflows.start({
    name: 'Checkout',
    plan: [{ step: 'cart', goal: 'a cart' }],
  });
  await services.dispose();
  const ws = ['--workspace', repo];
  const created = cliJson<{ id: number; status: string; workflowId: string }>([
    'task',
    'create',
    'Write the payment page',
    '--workflow',
    workflow_id,
    ...ws,
  ]);
  assert.deepEqual([created.status, created.workflowId], ['open', workflow_id]);
  const text = cli(['task', 'create', 'Write the receipts', '--workflow', workflow_id, ...ws]);
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout, new RegExp(`planned in ${workflow_id}`));
  const listed = cliJson<{ tasks: { title: string }[] }>(['task', 'list', '--workflow', workflow_id, ...ws]);
  assert.deepEqual(listed.tasks.map((t) => t.title).sort(), ['Write the payment page', 'Write the receipts']);
  const refused = cli(['task', 'create', 'x', '--workflow', workflow_id, '--agent', 'coder', ...ws]);
  assert.notEqual(refused.code, 0);
  const unknown = cli(['task', 'create', 'y', '--workflow', 'wf-99', ...ws]);
  assert.notEqual(unknown.code, 0);
  assert.match(unknown.stderr, /wf-99/);
});
