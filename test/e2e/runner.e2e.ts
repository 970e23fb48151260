// Issue 10 in the editor, in a real VS Code (code-server) with the packaged extension: Start Runner
// runs the runner as a child of the window, the status bar follows it (stopped → N agents running
// → stopped), the Agents & Sessions view shows the running instance, the pending handoff and the
// execution logs with their cost, a run's log opens in a tab that follows it live, and Stop
// Instance ends an agent. The agents are the scripted `claude` of test/fixtures/agents on PATH.
// Run alone: npm run e2e:setup && node --import tsx --test --test-reporter=spec test/e2e/runner.e2e.ts
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { formatReport, runExtensionTests } from './harness/extensionTests';
import { buildHostTests } from './harness/hostTests';
import { assertHostInstalled } from './harness/paths';
import { outRoot, packageAgentLedger } from './agentLedger/extensionPackage';
import type { PackagedExtension } from './agentLedger/extensionPackage';
import { createWorkspace } from './agentLedger/workspace';
import { cliJson } from '../helpers/cli';
import { connect } from '../helpers/mcpClient';
import type { FakeScript } from '../helpers/fakeAgents';
import { fakeAgents, logIn } from '../helpers/fakeAgents';
import { runningTask } from '../mcp/pmHelpers';

let pkg: PackagedExtension | undefined;

before(async () => {
  assertHostInstalled();
  pkg = await packageAgentLedger();
});

/** coder: hands its task over to any agent, prints, keeps working (until stopped); reviewer: reports at once, with a cost. */
const script: FakeScript = {
  steps: [],
  byAgent: {
    coder: {
      steps: [
        logIn,
        { call: 'get_my_task', args: {} },
        {
          call: 'create_handoff',
          args: {
            task_id: { $result: [1, 'task.task_id'] },
            from_agent_id: 'coder',
            summary: 'Form done; someone please review',
          },
        },
        { print: 'first line of the coder' },
        { sleep: 4000 },
        { print: 'second line of the coder' },
        { sleep: 120_000 },
      ],
    },
    reviewer: {
      usage: { costUsd: 0.0421, inputTokens: 1200, outputTokens: 300 },
      steps: [
        logIn,
        { call: 'get_my_task', args: {} },
        { call: 'report_completed', args: { result: 'success', summary: 'reviewed' } },
      ],
    },
  },
};

describe(
  'the runner in the editor (Start/Stop Runner, status bar, Agents view, live log, Stop Instance)',
  { timeout: 420_000 },
  () => {
    it('passes in the extension host', async () => {
      const workspace = createWorkspace('al-e2e-runner-', false);
      const fakes = fakeAgents();
      try {
        cliJson(['project', 'create', 'web', '--dir', '.', '--workspace', workspace]);
        cliJson(['project', 'add-agent', 'web', 'coder', '--workspace', workspace]);
        cliJson(['project', 'add-agent', 'web', 'reviewer', '--workspace', workspace]);
        const c = await connect(workspace, ['--enable-pm']);
        try {
          await runningTask(c, 'Login form', 'coder', 'web');
          await runningTask(c, 'Review the API', 'reviewer', 'web');
        } finally {
          await c.close();
        }
        const extensionTestsPath = await buildHostTests({
          testFiles: [path.join(__dirname, 'agentLedger', 'runnerHost', 'runner.host.ts')],
          outDir: path.join(outRoot, 'agent-ledger-runner-host-tests'),
        });
        const env = fakes.env(script);
        // code-server's extension host resolves PATH from a login shell: the fakes' folder travels apart.
        const result = await runExtensionTests({
          name: 'agent-ledger-runner',
          extensionDevelopmentPath: pkg!.unpackedDir,
          extensionTestsPath,
          workspace,
          timeoutMs: 300_000,
          env: { ...env, AGENT_LEDGER_E2E_PATH: env.PATH },
        });
        const summary = `${formatReport(result.report)}\n(run folder: ${result.runDir}, ${(result.durationMs / 1000).toFixed(1)} s)`;
        console.log(summary);
        assert.equal(result.timedOut, false, `timed out\n${summary}`);
        assert.equal(result.exitCode, 0, summary);
        assert.equal(result.report?.stats.passes, 1, summary);
        assert.equal(
          fakes.runs().filter((r) => r.client === 'claude').length,
          2,
          'the runner launched the coder and the reviewer, once each',
        );
      } finally {
        rmSync(workspace, { recursive: true, force: true });
      }
    });
  },
);
