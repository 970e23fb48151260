// Stop Instance's refusals, on both engines: nothing is signalled for a run that is over, one a
// runner of another machine or folder started, or one without a process record.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { AgentInstanceService } from '../../../../src/core/runtime/agentInstances';
import type { ProcessSupervisorPort } from '../../../../src/core/ports/processes';
import { logReader } from '../../../../src/processes/logReader';
import { engineCases } from '../../store/engines/engineKit';
import { tempDir } from '../../../helpers/tmp';

const at = '2026-11-23T10:00:00.000Z';

for (const engineCase of engineCases) {
  test(
    `Stop Instance refuses, with a code and without signalling anything, on ${engineCase.name}`,
    { skip: engineCase.skip },
    async () => {
      const ledger = await engineCase.ledger();
      try {
        const engine = await ledger.open();
        const workspace = tempDir();
        const runsDir = path.join(workspace, '.agent-ledger', 'runs');
        const signalled: string[] = [];
        const supervisor: Pick<ProcessSupervisorPort, 'readRecord' | 'stopRecorded' | 'checkRecord'> = {
          readRecord: async () => undefined,
          checkRecord: async () => 'gone',
          stopRecorded: async (r) => {
            signalled.push(r.id);
            return 'running';
          },
        };
        const service = new AgentInstanceService({
          engine,
          supervisor,
          logs: logReader,
          workspace,
          runsDir,
          host: 'here',
        });
        const ids = await engine.write(async (tx) => {
          const project = await tx.insert(
            'INSERT INTO projects (name, working_directory, created_at, updated_at) VALUES (?, ?, ?, ?)',
            ['web', '.', at, at],
          );
          const task = await tx.insert(
            'INSERT INTO tasks (title, status, created_at, updated_at) VALUES (?, ?, ?, ?)',
            ['Login', 'in_progress', at, at],
          );
          const run = (status: string, runnerId: string | null, processId: string | null): Promise<number> =>
            tx.insert(
              'INSERT INTO execution_logs (task_id, agent, project_id, status, started_at, runner_id, process_id) VALUES (?, ?, ?, ?, ?, ?, ?)',
              [task, 'coder', project, status, at, runnerId, processId],
            );
          const done = await run('completed', `here:${runsDir}`, 'exec-1');
          const elsewhere = await run('running', `there:${runsDir}`, 'exec-2');
          const otherFolder = await run('running', 'here:/some/other/folder/.agent-ledger/runs', 'exec-3');
          const byHand = await run('running', null, null);
          const noRecord = await run('running', `here:${runsDir}`, 'exec-5');
          await tx.run(
            'INSERT INTO agent_instances (agent, project_id, status, task_id, pid, runner_id, started_at, heartbeat_at, updated_at, execution_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
            ['coder', project, 'running', task, 4242, `there:${runsDir}`, at, at, at, elsewhere],
          );
          return { done, elsewhere, otherFolder, byHand, noRecord };
        });
        const refusal = async (id: number, code: string, message: RegExp): Promise<void> => {
          await assert.rejects(service.stop(`exec-${id}`), (e: unknown) => {
            const err = e as { code?: string; message?: string };
            assert.equal(err.code, code, err.message);
            assert.match(err.message ?? '', message);
            return true;
          });
        };
        await refusal(ids.done, 'InvalidStatus', /is not running \(it is completed\)/);
        await refusal(ids.elsewhere, 'InvalidStatus', /runs on there: stop it there/);
        await refusal(ids.otherFolder, 'InvalidStatus', /runner of another folder/);
        await refusal(ids.byHand, 'InvalidStatus', /not started by a runner/);
        await refusal(ids.noRecord, 'NotFound', /left no process record/);
        await assert.rejects(service.stop('exec-999'), (e: unknown) => (e as { code?: string }).code === 'NotFound');
        await assert.rejects(
          service.stop('not a run'),
          (e: unknown) => (e as { code?: string }).code === 'ValidationError',
        );
        assert.deepEqual(signalled, [], 'nothing was signalled');

        const [instance] = await service.running();
        assert.deepEqual(
          {
            agent: instance.agentId,
            project: instance.projectName,
            pid: instance.pid,
            host: instance.host,
            stoppableHere: instance.stoppableHere,
          },
          { agent: 'coder', project: 'web', pid: 4242, host: 'there', stoppableHere: false },
          'another machine’s instance is shown, not stoppable here',
        );
        const log = await service.logFile(`exec-${ids.elsewhere}`);
        assert.equal(log.logFile, null);
        assert.match(log.missing ?? '', /not started its process yet|left no log file/);
      } finally {
        await ledger.dispose();
      }
    },
  );
}
