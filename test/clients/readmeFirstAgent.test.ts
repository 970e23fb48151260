// The README's first screen, as pasted: its five commands run one after the other in a Git
// repository whose `npm test` fails, with the installed `agent-ledger`, the real `claude` and the
// scripted model standing in for Anthropic's; the agent fixes the bug in its worktree, and the
// work lands on the person's branch. The transcript the README shows is what they print (paths,
// ids of processes and commits, times, tokens and cost aside).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { agentCliHome, skipUnlessInstalled } from '../helpers/agentClis';
import { fixTheBug, runAsPerson, tinyProject } from '../helpers/firstAgent';
import { cliPath } from '../helpers/mcpClient';
import { startScriptedModel } from '../helpers/scriptedModel/scriptedModel';
import { git, tempDir } from '../helpers/tmp';

const readme = fs.readFileSync(path.resolve(__dirname, '../../README.md'), 'utf8');
const marker = '<!-- readme-example: the first agent -->';

/** The five commands, as the README shows them (comments included: they are pasted too). */
function firstCommands(): string[] {
  const at = readme.indexOf(marker);
  assert.ok(at >= 0, `the README marks its first commands with ${marker}`);
  const block = /^```sh\n([\s\S]*?)\n```/m.exec(readme.slice(at + marker.length).trimStart())?.[1];
  assert.ok(block, 'a sh block follows the marker');
  return block.split('\n').filter((l) => l.trim() !== '' && !l.trim().startsWith('#'));
}

/** The transcript after the commands: `$ command` and the lines it printed (`…` skips some). */
function transcript(): Array<{ command: string; lines: string[] }> {
  const after = readme.slice(readme.indexOf(marker));
  const block = /```text\n(\$ [\s\S]*?)\n```/.exec(after)?.[1];
  assert.ok(block, 'a transcript follows the five commands');
  const out: Array<{ command: string; lines: string[] }> = [];
  for (const line of block.split('\n'))
    if (line.startsWith('$ ')) out.push({ command: line.slice(2), lines: [] });
    else out.at(-1)!.lines.push(line);
  return out;
}

/** A line with what differs from run to run made alike: paths, commit ids, numbers. */
function shape(line: string): string {
  return line
    .replace(/\/\S+/g, '<path>')
    .replace(/ by \S+ /g, ' by <who> ')
    .replace(/\b[0-9a-f]{7,40}\b/g, '<sha>')
    .replace(/\d[\d,.]*/g, '<n>')
    .replace(/^( {2}<sha> .*) \([^()]+\)$/, '$1 (<author>)')
    .trimEnd();
}

const withoutComment = (command: string): string => command.replace(/\s+#.*$/, '');

test(
  'the first unattended agent in five commands, pasted from the README, with the real claude',
  { skip: skipUnlessInstalled('claude') },
  async () => {
    const commands = firstCommands();
    assert.equal(commands.length, 5, commands.join('\n'));
    const repo = tinyProject();
    const model = await startScriptedModel(fixTheBug('claude'));
    const { env } = agentCliHome('claude', model.url);
    // `agent-ledger` on PATH, as installed: the built CLI.
    const bin = tempDir('agent-ledger-bin-');
    fs.writeFileSync(path.join(bin, 'agent-ledger'), `#!/bin/sh\nexec "${process.execPath}" "${cliPath}" "$@"\n`, {
      mode: 0o755,
    });
    const shellEnv = { ...env, PATH: `${bin}${path.delimiter}${env.PATH}` };

    const printed = new Map<string, string>();
    for (const command of commands) {
      const r = await runAsPerson('bash', ['-e', '-c', command], repo, shellEnv);
      assert.equal(r.code, 0, `${command}\n${r.stdout}\n${r.stderr}\nmodel errors: ${model.errors.join('; ')}`);
      printed.set(withoutComment(command), r.stdout);
    }
    assert.deepEqual(model.errors, []);
    assert.ok(model.finished, 'the agent took every step');
    assert.equal(fs.readFileSync(path.join(repo, 'sum.js'), 'utf8'), 'exports.sum = (a, b) => a + b;\n', 'landed');
    assert.equal(git(repo, 'log', '-1', '--format=%s').trim(), 'sum adds');
    assert.equal(git(repo, 'worktree', 'list').trim().split('\n').length, 1, 'the worktree is gone');

    if (process.env.AGENT_LEDGER_PRINT_TRANSCRIPT)
      for (const [command, out] of printed) console.log(`$ ${command}\n${out}`);
    const shown = transcript();
    assert.ok(shown.length >= 3, 'the transcript shows the runner, the task and the landing');
    for (const { command, lines } of shown) {
      const out = printed.get(command);
      assert.ok(out !== undefined, `the transcript's "$ ${command}" is one of the five commands`);
      const real = out.split('\n').map(shape);
      for (const line of lines.filter((l) => l.trim() !== '…'))
        assert.ok(real.includes(shape(line)), `"$ ${command}" printed no line like:\n${line}\nit printed:\n${out}`);
    }
  },
);
