import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { connect } from '../helpers/mcpClient';
import { cli, cliError } from '../helpers/cli';
import { tempRepo } from '../helpers/tmp';

interface Range {
  from: number;
  to: number;
}

test('30 tasks, 40 bytes overwritten mid-journal: every face says the ledger is damaged, nothing is cut off, db check and db repair get back every intact task', async () => {
  const repo = tempRepo();
  const run = (...args: string[]) => cli([...args, '--workspace', repo]);
  const creator = await connect(repo);
  for (let i = 1; i <= 30; i++) await creator.call('task_create', { title: `task ${i}` });
  await creator.close();
  const dir = path.join(repo, '.agent-ledger');
  const journal = path.join(dir, 'ledger.journal');
  const original = fs.readFileSync(journal);
  const damaged = Buffer.from(original);
  damaged.fill(0x58, damaged.length >> 1, (damaged.length >> 1) + 40);
  fs.writeFileSync(journal, damaged);

  // Reads say so instead of showing 9 tasks; writes are refused and nothing is truncated.
  const list = run('task', 'list');
  assert.equal(list.code, 4, list.stderr);
  assert.equal(list.stdout, '');
  assert.match(list.stderr, /the ledger is damaged.*db repair/s);
  const create = run('task', 'create', 'after', '--json');
  assert.equal(create.code, 4);
  assert.equal(cliError(create).reason, 'damaged');
  assert.deepEqual(fs.readFileSync(journal), damaged, 'the journal was not truncated');
  assert.ok(
    fs.readdirSync(dir).some((n) => n.startsWith('ledger.journal.damaged-')),
    'a copy of the damaged journal is kept',
  );

  // An MCP server started on it answers every tool call with a coded error.
  const server = await connect(repo);
  const refused = await server.fail('task_list');
  assert.equal(refused.code, -32010);
  assert.equal(refused.data?.reason, 'damaged');

  const check = run('db', 'check', '--json');
  assert.equal(check.code, 4, check.stderr);
  const report = JSON.parse(check.stdout) as {
    ok: boolean;
    journal: { status: string; damagedBytes: unknown[] };
    repair: { lost: Range[] };
  };
  assert.equal(report.ok, false);
  assert.equal(report.journal.status, 'damaged');
  assert.ok(report.journal.damagedBytes.length > 0);
  const text = run('db', 'check');
  assert.equal(text.code, 4);
  assert.match(text.stdout, /The ledger is damaged[\s\S]*lost\s+seq/);

  const repaired = run('db', 'repair', '--json');
  const repair = JSON.parse(repaired.stdout) as { repaired: boolean; lost: Range[]; unrecoverable: unknown[] };
  assert.equal(repair.repaired, true);
  assert.deepEqual(repair.lost, report.repair.lost);
  assert.deepEqual(repair.unrecoverable, []);
  assert.equal(repaired.code, repair.lost.length ? 4 : 0);

  // The server that was refused reads the repaired ledger without a restart.
  const { tasks } = await server.call<{ tasks: { id: number; title: string }[] }>('task_list', { limit: 100 });
  await server.close();
  for (const t of tasks) assert.equal(t.title, `task ${t.id}`, 'every recovered task keeps its id');
  const lostCount = repair.lost.reduce((n, r) => n + r.to - r.from + 1, 0);
  assert.ok(
    tasks.length >= 30 - lostCount && tasks.length < 30,
    `${tasks.length} tasks recovered, ${lostCount} record(s) lost`,
  );
  const after = JSON.parse(run('task', 'create', 'after', '--json').stdout) as { id: number };
  assert.equal(after.id, 31, 'no id is reused');
  assert.equal(run('db', 'check').code, 0);
  const again = run('db', 'repair');
  assert.equal(again.code, 0);
  assert.match(again.stdout, /Nothing to repair/);
});

test('db check on a workspace without a ledger creates nothing and exits 0', () => {
  const repo = tempRepo();
  const r = cli(['db', 'check', '--workspace', repo]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /No ledger/);
  assert.equal(fs.existsSync(path.join(repo, '.agent-ledger')), false);
});
