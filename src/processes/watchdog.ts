/**
 * A small watchdog between the supervisor and a program: a Node process that leads the program's
 * process group and runs the program in it with the same standard streams. It ends the group
 * (SIGTERM, SIGKILL after the grace) when
 * - the supervisor's process dies, for a program that must die with it (a child runtime dies with
 *   its MCP server): it holds one more pipe to the supervisor. Node cannot ask the kernel to
 *   signal a child when its parent dies (PR_SET_PDEATHSIG), but a pipe closes when the process
 *   holding its other end dies, however it dies — `kill -9` included;
 * - a deadline passes (a wall-clock backstop, read from the system clock every second, so a
 *   machine that slept does not stretch it): an agent the runner launched ends at its wall clock
 *   even when its runner is frozen or gone, which is what lets another machine's runner take its
 *   pair over without launching it twice (instanceClaims.ts).
 *
 * While the supervisor lives nothing changes: it signals the whole group (the program gets the
 * signal directly), the watchdog ignores SIGTERM/SIGINT/SIGHUP and ends as the program ends — with
 * its exit code, or killed by the same signal.
 *
 * A process that leaves the group (`setsid`, `setpgid`) escapes a signal to the group. On Linux the
 * watchdog looks at the program's descendants every second and remembers those outside the group
 * (pid and start time); it ends them too when the group ends. One that leaves and is orphaned
 * between two looks, or the descendants of a watchdog killed with SIGKILL, still escape (README,
 * "Child runtimes").
 */

/**
 * The watchdog's program, run with `node -e`:
 * `-- <grace ms> <keep ELECTRON_RUN_AS_NODE: 0|1> <die with parent: 0|1> <deadline, epoch ms, 0: none> <program> [args…]`.
 */
const source = String.raw`'use strict';
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const [graceArg, keepElectron, withParent, deadlineArg, program, ...args] = process.argv.slice(1);
const grace = Number(graceArg) || 2000;
const deadline = Number(deadlineArg) || 0;
const group = process.pid;
if (keepElectron !== '1') delete process.env.ELECTRON_RUN_AS_NODE;
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(signal, () => {});
const escaped = new Map();
function stat(pid) {
  try {
    const text = fs.readFileSync('/proc/' + pid + '/stat', 'utf8');
    const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(f[1]), pgrp: Number(f[2]), start: f[19] };
  } catch {
    return null;
  }
}
function look() {
  let pids;
  try {
    pids = fs.readdirSync('/proc').filter((n) => /^\d+$/.test(n)).map(Number);
  } catch {
    return;
  }
  const info = new Map();
  for (const pid of pids) {
    const s = stat(pid);
    if (s) info.set(pid, s);
  }
  const ours = new Set([group]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, s] of info)
      if (!ours.has(pid) && ours.has(s.ppid)) {
        ours.add(pid);
        grew = true;
        if (s.pgrp !== group) escaped.set(pid, s.start);
      }
  }
}
function endEscaped(signal) {
  for (const [pid, start] of escaped) {
    const s = stat(pid);
    if (s && s.start === start) {
      try {
        process.kill(pid, signal);
      } catch {}
    } else escaped.delete(pid);
  }
}
let ending = false;
let exited = false;
function endAll() {
  if (ending || exited) return;
  ending = true;
  look();
  endEscaped('SIGTERM');
  try {
    process.kill(-group, 'SIGTERM');
  } catch {}
  setTimeout(() => {
    endEscaped('SIGKILL');
    try {
      process.kill(-group, 'SIGKILL');
    } catch {}
  }, grace);
}
const child = spawn(program, args, { stdio: ['inherit', 'inherit', 'inherit', 'ignore'] });
child.on('error', (err) => {
  process.stderr.write('could not start ' + program + ': ' + err.message + '\n');
  process.exit(err.code === 'EACCES' ? 126 : 127);
});
const linux = process.platform === 'linux';
const looking =
  linux || deadline
    ? setInterval(() => {
        if (linux) look();
        if (deadline && Date.now() >= deadline) endAll();
      }, 1000)
    : undefined;
const parent = withParent === '1' ? new net.Socket({ fd: 3, readable: true, writable: false }) : undefined;
if (parent) {
  parent.on('data', () => {});
  parent.on('end', endAll);
  parent.on('close', endAll);
  parent.on('error', endAll);
}
child.on('exit', (code, signal) => {
  exited = true;
  if (looking) clearInterval(looking);
  if (linux) {
    look();
    endEscaped('SIGTERM');
    if (escaped.size > 0) setTimeout(() => endEscaped('SIGKILL'), grace).unref();
  }
  if (parent) parent.destroy();
  if (signal) {
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  }
  process.exitCode = code === null ? 1 : code;
});
`;

export interface WatchedLaunch {
  program: string;
  args: string[];
  env: Record<string, string>;
}

/** Whether the watchdog can run here: process groups and a Node to run it (the editor's runtime runs it as Node). */
export const watchdogSupported = process.platform !== 'win32';

/** What the watchdog watches for: the supervisor's death (a fourth pipe), a deadline (epoch ms), or both. */
export interface WatchOptions {
  graceMs: number;
  dieWithParent: boolean;
  deadlineMs?: number;
}

/**
 * The launch of `programPath` with `args` under the watchdog: this process's own runtime runs it
 * (in the editor, as Node). The program gets `env` unchanged. With `dieWithParent`, the fourth
 * standard stream must be a pipe the supervisor holds.
 */
export function watchedLaunch(
  programPath: string,
  args: readonly string[],
  env: Readonly<Record<string, string>>,
  watch: WatchOptions,
): WatchedLaunch {
  const electron = process.versions.electron !== undefined;
  const keep = env.ELECTRON_RUN_AS_NODE !== undefined;
  const flags = [
    String(watch.graceMs),
    keep ? '1' : '0',
    watch.dieWithParent ? '1' : '0',
    String(watch.deadlineMs ?? 0),
  ];
  return {
    program: process.execPath,
    args: ['-e', source, '--', ...flags, programPath, ...args],
    env: electron && !keep ? { ...env, ELECTRON_RUN_AS_NODE: '1' } : { ...env },
  };
}
