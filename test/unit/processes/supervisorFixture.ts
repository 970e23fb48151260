import * as path from 'node:path';
import { after } from 'node:test';
import type { ProcessSpec } from '../../../src/core/ports/processes';
import { readLog } from '../../../src/processes/logReader';
import { probeProcess } from '../../../src/processes/processIdentity';
import { ProcessSupervisor } from '../../../src/processes/processSupervisor';
import { tempDir } from '../../helpers/tmp';

export const childScript = path.resolve(__dirname, '../../fixtures/processes/child.mjs');

const supervisors: ProcessSupervisor[] = [];
after(async () => {
  // A failed test must not leave children running.
  await Promise.all(supervisors.map((s) => s.stopAll(100)));
});

/** A supervisor whose processes are stopped when the test file ends. */
export function supervisor(): ProcessSupervisor {
  const s = new ProcessSupervisor();
  supervisors.push(s);
  return s;
}

let counter = 0;

/** A spec that runs `node child.mjs <mode> …args` with a minimal environment. */
export function childSpec(mode: string, args: string[] = [], extra: Partial<ProcessSpec> = {}): ProcessSpec {
  const dir = tempDir('agent-ledger-proc-');
  return {
    id: `run-${++counter}`,
    program: process.execPath,
    args: [childScript, mode, ...args],
    cwd: dir,
    env: { PATH: process.env.PATH ?? '' },
    logDir: path.join(dir, 'logs'),
    ...extra,
  };
}

/** True while a process with this pid runs (a zombie waiting for init to reap it does not count). */
export async function alive(pid: number): Promise<boolean> {
  const probe = await probeProcess(pid);
  return probe !== null && !probe.zombie;
}

/** Waits until the log of a running process has a line `message` (e.g. a child's "ready"). */
export async function waitForLine(logFile: string, message: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await readLog(logFile)).entries.some((e) => e.message === message)) {
    if (Date.now() > deadline) throw new Error(`no line "${message}" in ${logFile}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
