// `npm run screenshots`: the README's pictures, made from a real run of the product. A sample
// repository gets a few agents' tasks through the real MCP server (one finished with a real
// diff, one pipeline waiting at a checkpoint), `agent-ledger ui` serves them, and headless
// Debian Chromium photographs the Board, a task's diff and the checkpoint into docs/images/.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawn } from 'node:child_process';
import { BrowserSession } from '../test/e2e/harness/browser';
import { cliPath, connect } from '../test/helpers/mcpClient';
import { tempRepo } from '../test/helpers/tmp';
import { drive, start, twoTasks } from '../test/mcp/pipelineDriver';
import type { Action } from '../test/mcp/pipelineDriver';

const out = path.resolve(__dirname, '../docs/images');

async function main(): Promise<void> {
  const repo = tempRepo({
    'README.md': '# shop\n',
    'src/api/limits.ts': 'export const requestsPerMinute = 60;\n',
    'src/checkout/cart.ts':
      'export function total(items: number[]): number {\n  return items.reduce((a, b) => a + b, 0);\n}\n',
  });
  const agent = await connect(repo);
  const { workflow_id } = await agent.call<{ workflow_id: string }>('start_workflow', { name: 'Checkout v2' });
  // Finished, with a real diff.
  const done = await agent.call<{ task_id: string }>('start_task', {
    workflow_id,
    name: 'Rate-limit the API',
    goal: 'At most 30 requests a minute per key',
    areas: ['src/api/**'],
  });
  fs.writeFileSync(
    path.join(repo, 'src/api/limits.ts'),
    'export const requestsPerMinute = 30;\nexport const burst = 10;\n\nexport function allowed(count: number): boolean {\n  return count < requestsPerMinute + burst;\n}\n',
  );
  await agent.call('log_milestone', { task_id: done.task_id, message: 'limits in place, tests pass', progress: 100 });
  await agent.call('complete_task', {
    task_id: done.task_id,
    status: 'success',
    outcome: { summary: 'Limits lowered to 30/min with a burst of 10', achievements: ['allowed() checks a key'] },
  });
  await agent.call('task_update', { id: Number(done.task_id.replace('task-', '')), assignee: 'coder' });
  // Running, queued and open work of several agents.
  const running = await agent.call<{ task_id: string }>('start_task', {
    workflow_id,
    name: 'Cart totals in cents',
    goal: 'No floating point money',
  });
  await agent.call('log_milestone', {
    task_id: running.task_id,
    message: 'cart.ts rewritten, 3 tests left',
    progress: 60,
  });
  await agent.call('task_update', { id: Number(running.task_id.replace('task-', '')), assignee: 'coder' });
  for (const [title, assignee] of [
    ['Review the rate limits', 'reviewer'],
    ['Document the API limits', 'writer'],
    ['Load-test checkout', 'tester'],
    ['Remove the old cart', ''],
  ])
    await agent.call('task_create', { title, ...(assignee ? { assignee } : {}), priority: 'high' });
  const review = await agent.call<{ task_id: string }>('start_task', {
    workflow_id,
    name: 'Audit payment logs',
    goal: 'Find PII',
  });
  await agent.call('log_issue', {
    task_id: review.task_id,
    type: 'unclear_requirement',
    resolution: 'Left as it is until a person decides',
    description: 'Card numbers appear in two log lines: a person must decide',
    requires_human_review: true,
  });
  // A pipeline waiting at its checkpoint.
  const { workspace } = await start(agent, 'Fix the login timeout --nopr', { effort: 'S', use_current_branch: false });
  await drive(agent, repo, workspace, {
    tasksMd: twoTasks,
    onAction: async (a: Action) => (a.type === 'checkpoint' ? 'stop' : undefined),
  });

  const ui = spawn(process.execPath, [cliPath, 'ui', '--json', '--workspace', repo], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve) => {
    let text = '';
    ui.stdout.on('data', (d: Buffer) => {
      text += d.toString();
      if (text.includes('\n')) resolve((JSON.parse(text.split('\n')[0]) as { url: string }).url);
    });
  });
  const base = new URL(url).origin;
  const browser = await BrowserSession.launch({ viewport: { width: 1280, height: 760 } });
  try {
    const page = await browser.page();
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto(url);
    await page.locator('[data-card]').first().waitFor();
    fs.mkdirSync(out, { recursive: true });
    await page.screenshot({ path: path.join(out, 'board.png') });
    await page.goto(`${base}/#/task/${done.task_id.replace('task-', '')}`);
    await page.locator('a.file[data-path="src/api/limits.ts"]').click();
    await page.locator('[data-testid=diff]').waitFor();
    await page.screenshot({ path: path.join(out, 'task-diff.png') });
    await page.goto(`${base}/#/pipeline/${encodeURIComponent(workspace)}`);
    await page.locator('[data-testid=decision]').waitFor();
    await page.screenshot({ path: path.join(out, 'checkpoint.png') });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto(`${base}/#/board`);
    await page.locator('[data-card]').first().waitFor();
    await page.screenshot({ path: path.join(out, 'board-dark.png') });
  } finally {
    await browser.close();
    ui.kill('SIGTERM');
    await agent.close();
  }
  console.log(
    `screenshots in ${path.relative(process.cwd(), out)}: board.png, task-diff.png, checkpoint.png, board-dark.png`,
  );
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
