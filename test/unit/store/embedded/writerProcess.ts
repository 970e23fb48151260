import { spawn } from 'node:child_process';
import * as path from 'node:path';

const fixture = path.join(__dirname, 'backgroundWriter.fixture.ts');

/** A writer process (backgroundWriter.fixture.ts) writing rows into `dbPath` without end, a background checkpoint every `checkpointRecords` records, each row acknowledged by a line. */
export function startWriter(
  dbPath: string,
  label: string,
  checkpointRecords: number,
): { acked: () => string[]; kill: () => Promise<void>; stderr: () => string } {
  const child = spawn(process.execPath, ['--import', 'tsx', fixture, dbPath, label, String(checkpointRecords)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  return {
    // Only complete lines were acknowledged.
    acked: () => stdout.split('\n').slice(0, -1),
    kill: async () => {
      child.kill('SIGKILL');
      await exited;
    },
    stderr: () => stderr,
  };
}
