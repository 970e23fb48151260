/**
 * Reads when a process started, so a record's pid can be told apart from a reused one
 * (`checkLiveness` in core decides). Linux: field 22 of /proc/<pid>/stat (clock ticks since
 * boot) with the boot id, so a reboot cannot make an old token match; macOS and other BSDs:
 * `ps -o stat=,lstart=`, an absolute date to the second.
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import type { ProcessProbe } from '../core/ports/processes';

/** State and start time of a /proc/<pid>/stat line, or null when it is not one. */
export function parseProcStat(text: string): { state: string; startTicks: string } | null {
  // Field 2 is the command name in parentheses and may itself hold spaces and parentheses.
  const close = text.lastIndexOf(')');
  if (close < 0) return null;
  const fields = text
    .slice(close + 1)
    .trim()
    .split(/\s+/);
  // fields[0] is field 3 (state); start time is field 22.
  const state = fields[0];
  const startTicks = fields[19];
  if (!state || !startTicks || !/^\d+$/.test(startTicks)) return null;
  return { state, startTicks };
}

/** State and start of `ps -o stat=,lstart=` output, or null. */
export function parsePsStatLstart(text: string): { zombie: boolean; lstart: string } | null {
  const match = /^\s*(\S+)\s+(.+?)\s*$/.exec(text);
  if (!match) return null;
  return { zombie: match[1].startsWith('Z'), lstart: match[2].replace(/\s+/g, ' ') };
}

let bootId: string | undefined;
function linuxBootId(): string {
  if (bootId === undefined) {
    try {
      bootId = fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    } catch {
      bootId = '';
    }
  }
  return bootId;
}

function probeLinux(pid: number): ProcessProbe | null {
  let text: string;
  try {
    text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  const stat = parseProcStat(text);
  if (!stat) return null;
  return { startToken: `linux:${linuxBootId()}:${stat.startTicks}`, zombie: stat.state === 'Z' || stat.state === 'X' };
}

function probePs(pid: number): Promise<ProcessProbe | null> {
  return new Promise((resolve) => {
    execFile(
      'ps',
      ['-o', 'stat=,lstart=', '-p', String(pid)],
      { env: { ...process.env, LC_ALL: 'C' }, timeout: 5000 },
      (error, stdout) => {
        const parsed = error ? null : parsePsStatLstart(String(stdout).split('\n')[0] ?? '');
        resolve(parsed ? { startToken: `ps:${parsed.lstart}`, zombie: parsed.zombie } : null);
      },
    );
  });
}

/** Whether start tokens can be read on this platform. */
export const startTokensSupported = process.platform !== 'win32';

/**
 * A probe read synchronously when the platform allows it (Linux), right after spawn: the child
 * cannot have been reaped yet (Node reaps on a later turn of the event loop), so the token is
 * always the child's own.
 */
export function probeProcessSync(pid: number): ProcessProbe | null | undefined {
  return process.platform === 'linux' ? probeLinux(pid) : undefined;
}

/** A live look at `pid`, or null when no such process exists. */
export async function probeProcess(pid: number): Promise<ProcessProbe | null> {
  if (process.platform === 'linux') return probeLinux(pid);
  if (startTokensSupported) return probePs(pid);
  // Windows: existence only; records carry no token there, so liveness is 'unknown'.
  try {
    process.kill(pid, 0);
    return { startToken: '', zombie: false };
  } catch {
    return null;
  }
}
