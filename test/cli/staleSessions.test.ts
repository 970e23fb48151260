// A session records the process it lives in: the CLI's one-shot commands name the shell that ran
// them (where `eval "$(agent-ledger worker command 5)"` runs the agent). Once that shell is gone,
// `session list` says the session is stale and how to end it; a session of another machine is
// never called stale, since this machine cannot probe it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cli, cliJson } from '../helpers/cli';
import { cliPath } from '../helpers/mcpClient';
import { ledgerEnv } from '../helpers/testLedger';
import { tempRepo } from '../helpers/tmp';

interface Listed {
  sessions: { id: number; status: string; liveness?: string }[];
}

test('session list: stale once the shell that started a session is gone, running while it lives, other machines never stale', () => {
  const repo = tempRepo({ 'src/a.ts': 'a\n' });
  const ws = ['--workspace', repo];
  const id = cliJson<{ id: number }>(['task', 'create', 'Stale or not', ...ws]).id;

  // A shell that starts a session and exits (`; true` keeps it the CLI's parent until the CLI ends).
  const shell = spawnSync(
    'sh',
    [
      '-c',
      '"$0" "$1" session start "$2" --agent coder --workspace "$3" --json; true',
      process.execPath,
      cliPath,
      String(id),
      repo,
    ],
    { encoding: 'utf8', env: { ...ledgerEnv(repo), NO_COLOR: '1' } },
  );
  assert.equal(shell.status, 0, shell.stderr);
  const gone = (JSON.parse(shell.stdout) as { sessionId: number }).sessionId;

  // This test process is the parent of the next one: it lives.
  const second = cliJson<{ id: number }>(['task', 'create', 'Alive', ...ws]).id;
  const alive = cliJson<{ sessionId: number }>([
    'session',
    'start',
    String(second),
    '--agent',
    'coder',
    ...ws,
  ]).sessionId;

  // Another machine's session: recorded with its machine name.
  const third = cliJson<{ id: number }>(['task', 'create', 'Elsewhere', ...ws]).id;
  const other = spawnSync(
    process.execPath,
    [cliPath, 'session', 'start', String(third), '--agent', 'coder', ...ws, '--json'],
    {
      encoding: 'utf8',
      env: { ...ledgerEnv(repo), AGENT_LEDGER_MACHINE: 'build-box-2' },
    },
  );
  assert.equal(other.status, 0, other.stderr);
  const elsewhere = (JSON.parse(other.stdout) as { sessionId: number }).sessionId;

  const listed = new Map(cliJson<Listed>(['session', 'list', ...ws]).sessions.map((s) => [s.id, s]));
  assert.equal(listed.get(gone)?.liveness, 'stale');
  assert.equal(listed.get(gone)?.status, 'running', 'stale is seen, never written: the person ends it');
  assert.equal(listed.get(alive)?.liveness, 'alive');
  assert.equal(listed.get(elsewhere)?.liveness, 'elsewhere');

  const text = cli(['session', 'list', ...ws]);
  assert.equal(text.code, 0, text.stderr);
  const row = (sid: number) => text.stdout.split('\n').find((l) => l.trimStart().startsWith(`${sid} `)) ?? '';
  assert.match(row(gone), /\bstale\b/);
  assert.doesNotMatch(row(alive), /stale/);
  assert.match(row(elsewhere), /other machine/);
  assert.match(text.stdout, new RegExp(`agent-ledger session end ${gone} --exit-code`));

  // Ended as `agent-ledger session end` says: no longer running, so no liveness.
  const ended = cliJson<{ status: string }>(['session', 'end', String(gone), '--exit-code', '1', ...ws]);
  assert.equal(ended.status, 'failed');
  const after = cliJson<Listed>(['session', 'list', ...ws]).sessions.find((s) => s.id === gone);
  assert.equal(after?.liveness, undefined);
});
