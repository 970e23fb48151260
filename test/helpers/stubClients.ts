import * as fs from 'node:fs';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import { tempDir } from './tmp';

export interface StubRun {
  /** The argv the stub client received (without its own name). */
  argv: string[];
  cwd: string;
  /** Name of the stub that was started. */
  client: string;
}

/**
 * A folder with stub `claude`, `codex` and `gemini` executables that record the argv and cwd
 * they were started with, to run a generated launch command for real.
 */
export function stubClients(): { bin: string; run(command: string, cwdForShell: string): StubRun } {
  const bin = tempDir('agent-ledger-stubs-');
  for (const name of ['claude', 'codex', 'gemini']) {
    const file = path.join(bin, name);
    // A POSIX shell stub (fast to start): NUL-separated name, cwd, then every argument as received.
    fs.writeFileSync(file, `#!/bin/sh\n{ printf '%s\\0' ${name} "$(pwd -P)"; printf '%s\\0' "$@"; } > "$STUB_OUT"\n`);
    fs.chmodSync(file, 0o755);
  }
  return {
    bin,
    run(command: string, cwdForShell: string): StubRun {
      const out = path.join(tempDir('agent-ledger-stub-out-'), 'run.out');
      execFileSync('bash', ['-c', command], {
        cwd: cwdForShell,
        env: { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH}`, STUB_OUT: out },
        stdio: 'pipe',
      });
      const [client, cwd, ...argv] = fs.readFileSync(out, 'utf8').split('\0').slice(0, -1);
      return { client, cwd, argv };
    },
  };
}

/** Strings that would run `touch <marker>` if any reached a shell unquoted. */
export function injectionAttempts(marker: string): string[] {
  return [
    `$(touch ${marker}-1)`,
    `\`touch ${marker}-2\``,
    `'; touch ${marker}-3; echo '`,
    `"; touch ${marker}-4; echo "`,
    `x\ntouch ${marker}-5\n`,
    `a && touch ${marker}-6 || b`,
    `$'\\x41'; touch ${marker}-7 #`,
    `!! \\ !$ $HOME \${PATH} | touch ${marker}-8 > /dev/null &`,
    `PROMPT\n)"\ntouch ${marker}-9\n$(cat <<'PROMPT'`,
  ];
}
