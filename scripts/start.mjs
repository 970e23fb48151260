#!/usr/bin/env node
// `npm start`: from a fresh clone to the extension running on a sample workspace in a real VS Code.
//   - `code` on PATH: a new VS Code window with this clone as the extension under development;
//   - otherwise (or with --code-server): the code-server the end-to-end tests use, installed
//     once into .vscode-test/ (node scripts/e2e/setup.mjs), with the packaged VSIX installed;
//     it prints the local URL and runs until Ctrl+C.
// The sample workspace (.vscode-test/sample-workspace, a Git repository) is seeded once with a
// finished task, a running one and a backlog task, recorded through the real MCP server.
// Usage: npm start [-- --code-server] [-- --port N] [-- --reset]
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { packageVsix } from './packageVsix.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cache = path.join(root, '.vscode-test');
const sample = path.join(cache, 'sample-workspace');
const args = process.argv.slice(2);
const forceCodeServer = args.includes('--code-server');
const port = Number(args[args.indexOf('--port') + 1]) || Number(process.env.PORT) || 8080;
const log = (m) => console.log(`[start] ${m}`);

function run(cmd, cmdArgs, opts = {}) {
  const r = spawnSync(cmd, cmdArgs, { stdio: 'inherit', cwd: root, ...opts });
  if (r.status !== 0) throw new Error(`${cmd} ${cmdArgs.join(' ')} exited with ${r.status ?? r.signal}`);
}

function onPath(name) {
  const finder = process.platform === 'win32' ? 'where' : 'which';
  const r = spawnSync(finder, [name], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.split(/\r?\n/)[0].trim() : undefined;
}

async function seedSample() {
  if (args.includes('--reset')) rmSync(sample, { recursive: true, force: true });
  if (existsSync(path.join(sample, '.agent-ledger'))) return;
  log(`creating the sample workspace ${path.relative(root, sample)}`);
  rmSync(sample, { recursive: true, force: true });
  const write = (file, text) => {
    mkdirSync(path.dirname(path.join(sample, file)), { recursive: true });
    writeFileSync(path.join(sample, file), text);
  };
  const git = (...a) =>
    execFileSync('git', ['-c', 'user.name=Sample', '-c', 'user.email=sample@example.com', ...a], {
      cwd: sample,
      encoding: 'utf8',
    });
  mkdirSync(sample, { recursive: true });
  git('init', '-q', '-b', 'main');
  write('README.md', '# Bookshop\n\nA sample project for trying Agent Ledger.\n');
  write(
    'src/cart.ts',
    'export function total(prices: number[]): number {\n  let sum = 0;\n  for (const p of prices) sum += p;\n  return sum;\n}\n',
  );
  write('src/checkout.ts', "export function checkout(): string {\n  return 'TODO';\n}\n");
  write('docs/notes.md', '# Notes\n\nOld notes, to be removed.\n');
  git('add', '-A');
  git('commit', '-qm', 'initial');

  // An agent's session, through the real server over stdio.
  const client = new Client({ name: 'agent-ledger-sample', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [path.join(root, 'dist', 'cli.js'), 'mcp', 'serve', '--workspace', sample],
      env: process.env,
      stderr: 'ignore',
    }),
  );
  const call = async (name, input) => {
    const r = await client.callTool({ name, arguments: input });
    if (r.isError) throw new Error(`${name}: ${r.content[0].text}`);
    return r.structuredContent;
  };
  const { workflow_id } = await call('start_workflow', {
    name: 'Checkout',
    description: 'A working checkout for the bookshop',
    plan: [
      { step: 'cart', goal: 'Totals with discounts' },
      { step: 'checkout', goal: 'Pay for the cart' },
    ],
  });
  const cart = await call('start_task', {
    workflow_id,
    name: 'Cart totals with discounts',
    goal: 'total() applies a percentage discount',
    areas: ['src/cart.ts', 'test'],
  });
  write(
    'src/cart.ts',
    'export function total(prices: number[], discountPercent = 0): number {\n  const sum = prices.reduce((a, b) => a + b, 0);\n  return Math.round(sum * (100 - discountPercent)) / 100;\n}\n',
  );
  write('test/cart.test.ts', "import { total } from '../src/cart';\n// total([10, 20], 10) === 27\n");
  write('CHANGELOG.md', '- Discounts in the cart\n');
  await call('log_decision', {
    task_id: cart.task_id,
    category: 'trade_off',
    question: 'Round per item or on the total?',
    options_considered: ['per item', 'on the total'],
    chosen: 'on the total',
    reasoning: 'One rounding step cannot drift',
    trade_offs: 'Line items may not add up to the cent',
  });
  await call('log_milestone', { task_id: cart.task_id, message: 'Discount applied, test written', progress: 80 });
  await call('complete_task', {
    task_id: cart.task_id,
    status: 'success',
    outcome: {
      summary: 'total() takes a discount percentage and rounds once, on the total.',
      achievements: ['discountPercent parameter', 'a test'],
      limitations: ['No per-item discounts'],
    },
  });
  const checkout = await call('start_task', {
    workflow_id,
    name: 'Checkout page',
    goal: 'checkout() charges the cart',
    areas: ['src/checkout.ts'],
  });
  write(
    'src/checkout.ts',
    "import { total } from './cart';\n\nexport function checkout(prices: number[]): string {\n  return `Charged ${total(prices)}`;\n}\n",
  );
  rmSync(path.join(sample, 'docs', 'notes.md'));
  await call('log_issue', {
    task_id: checkout.task_id,
    type: 'unclear_requirement',
    description: 'Which payment provider?',
    resolution: 'Stubbed for now',
    requires_human_review: true,
  });
  await call('log_milestone', { task_id: checkout.task_id, message: 'Charging stubbed', progress: 60 });
  await client.close();
  execFileSync(process.execPath, [
    path.join(root, 'dist', 'cli.js'),
    'task',
    'create',
    'Write the release notes',
    '--assignee',
    'docs-bot',
    '--workspace',
    sample,
  ]);
}

async function main() {
  log('building dist/ (npm run build)');
  run('npm', ['run', '--silent', 'build']);
  await seedSample();
  const code = forceCodeServer ? undefined : onPath('code');
  if (code) {
    log(`opening VS Code (${code}) with this clone as the extension under development`);
    run(code, ['--new-window', `--extensionDevelopmentPath=${root}`, sample]);
    log('the "[Extension Development Host]" window shows the Agent Ledger activity-bar icon');
    return;
  }
  // What can fail in seconds comes before the code-server install, which takes minutes the first time.
  if (!(await portFree(port))) throw new Error(`port ${port} is taken; choose another: npm start -- --port N`);
  const vsix = path.join(root, 'out', 'agent-ledger.vsix');
  log('packaging the extension (vsce)');
  packageVsix(root, vsix);
  log('no `code` on PATH: using code-server (installed once into .vscode-test/)');
  run(process.execPath, [path.join(root, 'scripts', 'e2e', 'setup.mjs')]);
  const node24 = path.join(cache, 'node24', 'bin', 'node');
  const entry = path.join(cache, 'code-server', 'node_modules', 'code-server', 'out', 'node', 'entry.js');
  const home = path.join(cache, 'start');
  const dirs = ['--user-data-dir', path.join(home, 'user-data'), '--extensions-dir', path.join(home, 'extensions')];
  // Its config and state stay in the clone, not in the home folder.
  const env = {
    ...process.env,
    XDG_CONFIG_HOME: path.join(home, 'xdg-config'),
    XDG_DATA_HOME: path.join(home, 'xdg-data'),
    XDG_CACHE_HOME: path.join(home, 'xdg-cache'),
  };
  for (const v of ['VSCODE_IPC_HOOK_CLI', 'ELECTRON_RUN_AS_NODE', 'NODE_OPTIONS', 'PASSWORD', 'HASHED_PASSWORD'])
    delete env[v];
  const settingsFile = path.join(home, 'user-data', 'User', 'settings.json');
  if (!existsSync(settingsFile)) {
    mkdirSync(path.dirname(settingsFile), { recursive: true });
    writeFileSync(
      settingsFile,
      JSON.stringify(
        {
          'workbench.startupEditor': 'none',
          'security.workspace.trust.enabled': false,
          'telemetry.telemetryLevel': 'off',
        },
        null,
        2,
      ),
    );
  }
  run(node24, [entry, ...dirs, '--install-extension', vsix, '--force'], { env });
  const url = `http://127.0.0.1:${port}/?folder=${encodeURIComponent(sample)}`;
  const server = spawn(
    node24,
    [
      entry,
      '--bind-addr',
      `127.0.0.1:${port}`,
      '--auth',
      'none',
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
      ...dirs,
      sample,
    ],
    { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  );
  const logFile = path.join(home, 'code-server.log');
  const out = createWriteStream(logFile);
  server.stdout.pipe(out);
  server.stderr.pipe(out);
  // code-server runs in its own process group (it spawns file watchers and extension hosts):
  // whatever ends this script ends the whole group.
  const killGroup = () => {
    try {
      process.kill(-server.pid, 'SIGTERM');
    } catch {
      /* already gone */
    }
  };
  process.on('exit', killGroup);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => process.exit(0));
  server.on('exit', (c) => {
    log(`code-server exited with ${c}; see ${path.relative(root, logFile)}`);
    process.exit(c ?? 1);
  });
  for (let i = 0; i < 300; i++) {
    const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  log(`VS Code (code-server) with Agent Ledger on the sample workspace:\n\n    ${url}\n`);
  log('open it in a browser; click the Agent Ledger icon in the activity bar. Ctrl+C stops it.');
}

function portFree(p) {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once('error', () => resolve(false));
    srv.listen(p, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

main().catch((err) => {
  console.error(`[start] ${err instanceof Error ? err.message : err}`);
  process.exit(1);
});
