import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { cliPath } from '../../helpers/mcpClient';
import { ledgerEnv } from '../../helpers/testLedger';

export interface Ui {
  child: ChildProcessWithoutNullStreams;
  url: string;
  port: number;
  token: string;
  stderr: () => string;
}

/** Starts `agent-ledger ui` as a person would and reads the one address it prints. */
export async function startUi(repo: string, extra: string[] = []): Promise<Ui> {
  const child = spawn(process.execPath, [cliPath, 'ui', '--json', '--workspace', repo, ...extra], {
    env: { ...ledgerEnv(repo), NO_COLOR: '1' },
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const line = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) resolve(out.split('\n')[0]);
    });
    child.on('close', (code) => reject(new Error(`ui exited ${code}: ${stderr}`)));
  });
  const { url, port } = JSON.parse(line) as { url: string; port: number };
  return { child, url, port, token: new URL(url).searchParams.get('token')!, stderr: () => stderr };
}
