#!/usr/bin/env node
// A two-minute tour without an agent: creates a small Git repository, drives the MCP server
// through a tracked task with the real SDK client (exactly as an agent would), then prints what
// the CLI shows and the commands to look further, ready to paste.
// Usage: npm run demo [-- FOLDER]   (default: a new folder in the system's temp folder, printed)
import { existsSync, mkdtempSync, mkdirSync, readdirSync, writeFileSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { quote } from 'shell-quote';

const cli = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'cli.js');
const given = process.argv[2] ? path.resolve(process.argv[2]) : undefined;
if (given && existsSync(given) && readdirSync(given).length > 0) {
  console.error(`${given} is not empty: give the demo a new or empty folder.`);
  process.exit(2);
}
const folder = given ?? realpathSync(mkdtempSync(path.join(tmpdir(), 'agent-ledger-demo-')));
const git = (...args) =>
  execFileSync('git', ['-c', 'user.name=Demo', '-c', 'user.email=demo@example.com', ...args], {
    cwd: folder,
    encoding: 'utf8',
  });
const write = (file, text) => {
  mkdirSync(path.dirname(path.join(folder, file)), { recursive: true });
  writeFileSync(path.join(folder, file), text);
};

console.log(`Demo repository: ${folder}\n`);
mkdirSync(folder, { recursive: true });
git('init', '-q');
write('src/auth/session.ts', 'export const ttl = 3600;\n');
write('README.md', '# demo\n');
git('add', '-A');
git('commit', '-qm', 'initial');

const client = new Client({ name: 'agent-ledger-demo', version: '1.0.0' });
await client.connect(
  new StdioClientTransport({
    command: process.execPath,
    args: [cli, 'mcp', 'serve', '--workspace', folder],
    env: process.env,
    stderr: 'ignore',
  }),
);
const call = async (name, args) => {
  const r = await client.callTool({ name, arguments: args });
  console.log(`→ ${name} ${r.isError ? 'ERROR ' : ''}${r.content[0].text}`);
  return r.structuredContent;
};

const { workflow_id } = await call('start_workflow', {
  name: 'Session hardening',
  plan: [{ step: '1', goal: 'Shorter sessions' }],
});
const { task_id } = await call('start_task', {
  workflow_id,
  name: 'Shorten session TTL',
  goal: 'Sessions expire after 15 minutes',
  areas: ['auth'],
});
write('src/auth/session.ts', 'export const ttl = 900;\n');
write('src/auth/session.test.ts', "test('ttl', () => {});\n");
write('docs/security.md', 'Sessions last 15 minutes.\n');
await call('log_decision', {
  task_id,
  category: 'trade_off',
  question: 'How long should a session last?',
  options_considered: ['15 min', '1 h'],
  chosen: '15 min',
  reasoning: 'Security review asked for it',
});
await call('log_milestone', { task_id, message: 'Tests written', progress: 80 });
await call('complete_task', {
  task_id,
  status: 'success',
  outcome: { summary: 'Session TTL is now 15 minutes, with a test.', achievements: ['ttl = 900'], limitations: [] },
});
await client.close();

// Commands as they are pasted into a shell: this clone's CLI by its absolute path, every word quoted.
const command = (...args) => quote(['node', cli, ...args, '--workspace', folder]);
console.log(`\n$ ${command('task', 'get', task_id)}\n`);
console.log(execFileSync(process.execPath, [cli, 'task', 'get', task_id, '--workspace', folder], { encoding: 'utf8' }));
console.log(`The demo repository is ${folder} (a Git repository; nothing else was written).`);
console.log('Look further, from any folder (paste these):');
for (const line of [
  command('workflow', 'show', workflow_id),
  command('task', 'list'),
  command('task', 'get', task_id, '--json'),
])
  console.log(`  ${line}`);
console.log(
  `Serve it to an MCP client (the client starts this command; by hand it waits on stdin):\n  ${command('mcp', 'serve')}`,
);
console.log(`Remove it when done:\n  ${quote(['rm', '-rf', folder])}`);
