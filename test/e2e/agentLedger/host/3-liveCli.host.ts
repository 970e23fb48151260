// Another process (the CLI) writes the store: the view shows it without any reload.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { extension, folder, treeText, until } from './hostHelpers';

const run = promisify(execFile);

async function cli(...args: string[]): Promise<string> {
  const cliPath = path.join(extension().extensionPath, 'dist', 'cli.js');
  // The extension host's runtime runs the bundled CLI, as the MCP definition does.
  const { stdout } = await run(process.execPath, [cliPath, ...args, '--workspace', folder()], {
    env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
  });
  return stdout;
}

describe('live refresh from other processes', () => {
  it('shows a task the CLI creates within a second of the write', async () => {
    await cli('task', 'create', 'Written by the CLI', '--assignee', 'ci-bot');
    const seen = await until(
      'the CLI task in the view',
      async () => (await treeText()).includes('Written by the CLI'),
      1_000,
    );
    assert.ok(seen.ms < 1_000, `took ${seen.ms} ms`);
    assert.match(
      await treeText(),
      /^Tasks without a workflow — 1\n {2}Written by the CLI — open · task-\d+ · @ci-bot$/m,
    );
  });

  it('follows an update made by the CLI', async () => {
    const id = /Written by the CLI — .*?(task-\d+)/.exec(await treeText())?.[1];
    assert.ok(id);
    await cli('task', 'update', id, '--title', 'Renamed by the CLI');
    await until('the renamed task', async () => (await treeText()).includes('Renamed by the CLI'), 1_000);
  });
});
