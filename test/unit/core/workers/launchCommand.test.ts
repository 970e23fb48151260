import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { clientArgv, shellCommand } from '../../../../src/core/workers/launchCommand';
import { agentClients } from '../../../../src/core/agents/agentModel';
import { tempDir } from '../../../helpers/tmp';
import { injectionAttempts, stubClients } from '../../../helpers/stubClients';

test('each client gets its own flags: model bound to its option, auto-approval only when asked', () => {
  assert.deepEqual(clientArgv('claude-code', { model: 'sonnet', auto: true, prompt: '# P' }), [
    'claude',
    '--print',
    '--model=sonnet',
    '--dangerously-skip-permissions',
    '# P',
  ]);
  assert.deepEqual(clientArgv('codex', { model: null, auto: false, prompt: '# P' }), ['codex', 'exec', '# P']);
  assert.deepEqual(clientArgv('gemini-cli', { model: 'gemini-2.5-pro', auto: true, prompt: '# P' }), [
    'gemini',
    '--model=gemini-2.5-pro',
    '--yolo',
    '--prompt=# P',
  ]);
});

test('the shell command is inert: every hostile string reaches the stub client as one literal argument', () => {
  const stubs = stubClients();
  const dir = tempDir('agent-ledger-launch-');
  const cwd = path.join(dir, "work tree $(touch nope) 'q'");
  fs.mkdirSync(cwd);
  const marker = path.join(dir, 'PWNED');
  for (const client of agentClients) {
    for (const hostile of injectionAttempts(marker)) {
      const prompt = `# Worker: x\n${hostile}\n`;
      const model = `m${hostile}`;
      const command = shellCommand(cwd, clientArgv(client, { model, auto: false, prompt }));
      const run = stubs.run(command, dir);
      assert.deepEqual(
        run.argv,
        clientArgv(client, { model, auto: false, prompt }).slice(1),
        `${client}: ${JSON.stringify(hostile)}`,
      );
      assert.equal(fs.realpathSync(run.cwd), fs.realpathSync(cwd));
    }
  }
  assert.deepEqual(
    fs.readdirSync(dir).filter((f) => f.startsWith('PWNED')),
    [],
    'no injected command ran',
  );
  assert.ok(!fs.existsSync(path.join(dir, 'nope')));
});
