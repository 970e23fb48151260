import assert from 'node:assert/strict';
import { connect } from '../helpers/mcpClient';
import type { LedgerClient } from '../helpers/mcpClient';
import { tempRepo } from '../helpers/tmp';
import { cliJson } from '../helpers/cli';
import type { Action } from './pipelineDriver';
import { drive, start, twoTasks } from './pipelineDriver';

/** Shared by the tests of checkpoints asked in the client (clientGates, claudeCodeGates). */
const repoFiles = {
  'package.json': '{"scripts":{"build":"tsc -p .","test":"node --test"}}\n',
  'src/http.ts': 'export function get() {}\n',
  'README.md': '# demo\n',
};

/** A repository whose pipeline waits at its first checkpoint (driven over stdio by a scripted agent). */
export async function pipelineAtCheckpoint(): Promise<{
  repo: string;
  workspace: string;
  checkpoint: string;
  agent: LedgerClient;
}> {
  const repo = tempRepo(repoFiles);
  const agent = await connect(repo);
  const { workspace } = await start(agent, 'Fix the typo in the README --nopr', {
    effort: 'S',
    use_current_branch: false,
  });
  let checkpoint = '';
  await drive(agent, repo, workspace, {
    tasksMd: twoTasks,
    onAction: async (a: Action) => {
      if (a.type !== 'checkpoint') return;
      checkpoint = String(a.name);
      return 'stop';
    },
  });
  assert.ok(checkpoint, 'the flow reached a checkpoint');
  return { repo, workspace, checkpoint, agent };
}

export interface Decision {
  name: string;
  decision: string;
  comment: string | null;
  decided_by: string;
  via: string;
}

export function decisions(repo: string, workspace: string): Decision[] {
  return cliJson<{ decisions: Decision[] }>(['pipeline', 'status', workspace, '--workspace', repo]).decisions;
}
