import { spawnSync } from 'node:child_process';
import { cliPath } from './mcpClient';
import { ledgerEnv, workspaceOf } from './testLedger';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built `agent-ledger` CLI as a person or a script would (pass `--workspace` in `args`, or a `cwd`). */
export function cli(args: string[], options: { cwd?: string; input?: string } = {}): CliResult {
  // On `AGENT_LEDGER_TEST_DB=postgres`, the workspace's own PostgreSQL database (testLedger.ts); `--db` wins.
  const env = args.includes('--db') ? process.env : ledgerEnv(workspaceOf(args, options.cwd));
  const r = spawnSync(process.execPath, [cliPath, ...args], {
    cwd: options.cwd,
    input: options.input,
    encoding: 'utf8',
    env: { ...env, NO_COLOR: '1' },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Runs with `--json` and returns the parsed stdout; throws with stderr when the command failed. */
export function cliJson<T = Record<string, unknown>>(
  args: string[],
  options: { cwd?: string; input?: string } = {},
): T {
  const r = cli([...args, '--json'], options);
  if (r.code !== 0) throw new Error(`agent-ledger ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
  return JSON.parse(r.stdout) as T;
}

/** The `{ error }` object a failed `--json` run printed on stderr. */
export function cliError(r: CliResult): {
  code: number;
  reason: string;
  message: string;
  data?: Record<string, unknown>;
} {
  return (JSON.parse(r.stderr) as { error: ReturnType<typeof cliError> }).error;
}
