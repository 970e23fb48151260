import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { cliPath } from '../helpers/mcpClient';
import { cli } from '../helpers/cli';
import { tempDir, tempRepo } from '../helpers/tmp';

const root = path.resolve(__dirname, '../..');
const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
const marker = '<!-- readme-example: run in a new Git repository -->';

/** The shell blocks the README marks as runnable, with the line each starts on. */
function markedExamples(): { line: number; script: string }[] {
  const examples: { line: number; script: string }[] = [];
  const pattern = new RegExp(
    `${marker.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\n\`\`\`sh\\n([\\s\\S]*?)\\n\`\`\``,
    'g',
  );
  for (const m of readme.matchAll(pattern))
    examples.push({ line: readme.slice(0, m.index).split('\n').length + 1, script: m[1] });
  return examples;
}

/** A folder with `agent-ledger` in it, standing for the installed command: the built CLI. */
function binDir(): string {
  const bin = tempDir('agent-ledger-bin-');
  fs.writeFileSync(path.join(bin, 'agent-ledger'), `#!/bin/sh\nexec "${process.execPath}" "${cliPath}" "$@"\n`, {
    mode: 0o755,
  });
  return bin;
}

function shell(script: string, cwd: string, bin: string, input = ''): { code: number | null; out: string } {
  const r = spawnSync('bash', ['-e', '-c', script], {
    cwd,
    input,
    encoding: 'utf8',
    timeout: 120_000,
    env: {
      ...process.env,
      PATH: `${bin}${path.delimiter}${process.env.PATH}`,
      NO_COLOR: '1',
      GIT_AUTHOR_NAME: 'Test',
      GIT_AUTHOR_EMAIL: 'test@example.com',
      GIT_COMMITTER_NAME: 'Test',
      GIT_COMMITTER_EMAIL: 'test@example.com',
    },
  });
  return { code: r.status, out: `${r.stdout}\n${r.stderr}` };
}

/** README examples work as written when pasted, from where the README says to run them. */
describe('README examples', () => {
  let bin: string;
  before(() => {
    bin = binDir();
  });

  test('the README marks its terminal examples as runnable', () => {
    const examples = markedExamples();
    assert.ok(examples.length >= 2, `expected the CLI and pipeline examples to be marked with ${marker}`);
    assert.ok(
      examples.some((e) => /project create web --dir packages\/web/.test(e.script) && /--agent coder/.test(e.script)),
      'the agent-PM block (a project, its agent, a task queued for it) is run as pasted',
    );
    for (const e of examples) assert.doesNotMatch(e.script, /\b20\d{6}-/, `README line ${e.line}: no hard-coded dates`);
    for (const e of examples)
      assert.doesNotMatch(e.script, /(^|\s)#\d/m, `README line ${e.line}: an unquoted #3 is a shell comment`);
  });

  for (const { line, script } of markedExamples()) {
    test(`the example at README line ${line} runs in a new Git repository, exit 0`, () => {
      const repo = tempRepo();
      const r = shell(script, repo, bin);
      assert.equal(r.code, 0, `README line ${line} failed:\n${r.out}`);
    });
  }

  test('the empty ledger points at a README section that exists', () => {
    const r = cli(['workflow', 'list', '--workspace', tempRepo()]);
    assert.equal(r.code, 0, r.stderr);
    const section = /see README: "([^"]+)"/.exec(r.stdout)?.[1];
    assert.ok(section, r.stdout);
    assert.match(readme, new RegExp(`^#{2,4} ${section}$`, 'm'), `README has no section "${section}"`);
  });

  test('npm run demo says where its repository is, and every command it prints works when pasted', () => {
    const folder = path.join(tempDir('agent-ledger-demo-test-'), 'demo');
    const demo = spawnSync(process.execPath, [path.join(root, 'scripts', 'demo.mjs'), folder], {
      encoding: 'utf8',
      timeout: 120_000,
    });
    assert.equal(demo.status, 0, demo.stderr);
    assert.match(demo.stdout, new RegExp(`^Demo repository: ${folder}$`, 'm'));
    assert.ok(demo.stdout.includes(`The demo repository is ${folder}`));
    const pasted = demo.stdout
      .split('\n')
      .filter((l) => /^ {2}(node|rm) /.test(l))
      .map((l) => l.trim());
    assert.ok(pasted.length >= 5, demo.stdout);
    for (const command of pasted) {
      const r = shell(command, tempDir(), bin); // from any folder; `mcp serve` ends when its stdin does
      assert.equal(r.code, 0, `${command}\n${r.out}`);
    }
    assert.equal(fs.existsSync(folder), false, 'the printed rm removed the demo repository');
  });
});
