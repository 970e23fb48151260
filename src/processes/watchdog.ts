/**
 * A child that must die with the process that started it (a child runtime dies with its MCP
 * server) is started through a small watchdog: a Node process that leads the child's process
 * group, runs the program in that group with the same standard streams, and holds one more pipe
 * to the supervisor. Node cannot ask the kernel to signal a child when its parent dies
 * (PR_SET_PDEATHSIG), but a pipe closes when the process holding its other end dies, however it
 * dies — `kill -9` included. Then the watchdog ends the group: SIGTERM, SIGKILL after the grace.
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

/** The watchdog's program, run with `node -e`: `-- <grace ms> <keep ELECTRON_RUN_AS_NODE: 0|1> <program> [args…]`. */
const source = String.raw`'use strict';
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const [graceArg, keepElectron, program, ...args] = process.argv.slice(1);
const grace = Number(graceArg) || 2000;
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
const looking = linux ? setInterval(look, 1000) : undefined;
const parent = new net.Socket({ fd: 3, readable: true, writable: false });
parent.on('data', () => {});
parent.on('end', endAll);
parent.on('close', endAll);
parent.on('error', endAll);
child.on('exit', (code, signal) => {
  exited = true;
  if (looking) clearInterval(looking);
  if (linux) {
    look();
    endEscaped('SIGTERM');
    if (escaped.size > 0) setTimeout(() => endEscaped('SIGKILL'), grace).unref();
  }
  parent.destroy();
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

/**
 * The launch of `programPath` with `args` under the watchdog: this process's own runtime runs it
 * (in the editor, as Node). The program gets `env` unchanged.
 */
export function watchedLaunch(
  programPath: string,
  args: readonly string[],
  env: Readonly<Record<string, string>>,
  graceMs: number,
): WatchedLaunch {
  const electron = process.versions.electron !== undefined;
  const keep = env.ELECTRON_RUN_AS_NODE !== undefined;
  return {
    program: process.execPath,
    args: ['-e', source, '--', String(graceMs), keep ? '1' : '0', programPath, ...args],
    env: electron && !keep ? { ...env, ELECTRON_RUN_AS_NODE: '1' } : { ...env },
  };
}
