import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { cliPath } from '../helpers/mcpClient';
import { serverNodeFlags } from '../../src/app/serverNodeFlags';
import { cli } from '../helpers/cli';
import { tempDir, tempRepo } from '../helpers/tmp';

const root = path.resolve(__dirname, '../..');
const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
const marker = '<!-- readme-example: run in a new Git repository -->';
/** The README and the reference pages moved out of it: their marked examples run the same. */
const pages = ['README.md', 'docs/mcp-tools.md'];

interface McpServerConfig {
  command: string;
  args: string[];
  env?: Record<string, string>;
}

/** The shell blocks the README (and its reference pages) mark as runnable, with where each starts. */
function markedExamples(): { line: string; script: string }[] {
  const examples: { line: string; script: string }[] = [];
  const pattern = new RegExp(
    `${marker.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\n\`\`\`sh\\n([\\s\\S]*?)\\n\`\`\``,
    'g',
  );
  for (const page of pages) {
    const text = fs.readFileSync(path.join(root, page), 'utf8');
    for (const m of text.matchAll(pattern))
      examples.push({ line: `${page}:${text.slice(0, m.index).split('\n').length + 1}`, script: m[1] });
  }
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
    for (const e of examples) assert.doesNotMatch(e.script, /\b20\d{6}-/, `${e.line}: no hard-coded dates`);
    for (const e of examples)
      assert.doesNotMatch(e.script, /(^|\s)#\d/m, `${e.line}: an unquoted #3 is a shell comment`);
  });

  for (const { line, script } of markedExamples()) {
    test(`the example at ${line} runs in a new Git repository, exit 0`, () => {
      const repo = tempRepo();
      const r = shell(script, repo, bin);
      assert.equal(r.code, 0, `${line} failed:\n${r.out}`);
      // A path the README teaches prints no warning; a checkpoint waiting for a person is what it shows.
      const warnings = r.out
        .split('\n')
        .filter((l) => /^warning:/.test(l))
        .flatMap((l) => l.replace(/^warning:\s*/, '').split('; '))
        .filter((w) => !/^waiting for a person to decide /.test(w));
      assert.deepEqual(warnings, [], `${line} prints warnings`);
    });
  }

  test("the README's client configurations start the server with its memory flags, as the editor's do", async () => {
    // The `claude mcp add` line and the `.mcp.json` block: what a configuration written from them runs.
    const claudeLine = /^claude mcp add agent-ledger .*$/m.exec(readme)?.[0] ?? '';
    const options = claudeLine.slice(0, claudeLine.indexOf(' -- '));
    const fromLine = /-e (?:"NODE_OPTIONS=([^"]+)"|NODE_OPTIONS=(\S+))/.exec(options);
    assert.ok(fromLine, `the claude mcp add line sets NODE_OPTIONS: ${claudeLine}`);
    const block = /```json\n(\{\n {2}"mcpServers"[\s\S]*?)\n```/.exec(readme)?.[1];
    assert.ok(block, 'the .mcp.json example');
    const config = (JSON.parse(block) as { mcpServers: Record<string, McpServerConfig> }).mcpServers['agent-ledger'];
    for (const flag of serverNodeFlags) {
      assert.ok((fromLine[1] ?? fromLine[2]).split(' ').includes(flag), `the claude mcp add line passes ${flag}`);
      assert.ok((config.env?.NODE_OPTIONS ?? '').split(' ').includes(flag), `.mcp.json passes ${flag}`);
    }
    // Started as the .mcp.json says (the command on PATH), the server process runs with them.
    const workspace = tempRepo();
    const transport = new StdioClientTransport({
      command: config.command,
      args: config.args.map((a) => (a === '/abs/path/project' ? workspace : a)),
      env: {
        ...(process.env as Record<string, string>),
        PATH: `${bin}${path.delimiter}${process.env.PATH}`,
        ...config.env,
      },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'readme-config', version: '1.0.0' });
    await client.connect(transport);
    try {
      assert.ok((await client.listTools()).tools.length > 0);
      const environ = fs.readFileSync(`/proc/${transport.pid}/environ`, 'utf8').split('\0');
      assert.ok(environ.includes(`NODE_OPTIONS=${config.env!.NODE_OPTIONS}`), 'the server process has the flags');
    } finally {
      await client.close();
    }
  });

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
