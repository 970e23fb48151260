/**
 * What the domain needs from the process supervisor, as plain types. `src/processes/` implements
 * it (the only place the product spawns agent CLIs and child runtimes, as `src/git/` is the only
 * place git runs); the runner and the child runtimes depend on this file, never on
 * `src/processes/`.
 *
 * The shape follows the two contracts that use it: the agent PM's runner launches one agent CLI per
 * (agent, project) and records an execution log with exit code and duration; the child runtimes
 * of the orchestrator (`child_create`, `child_spawn_codex`…) need limits (`wallclock_ms`, output size),
 * send input, stop, status, and logs readable as they are written (`sc://children/<id>/logs`
 * entries carry `seq`, `ts`, `stream: "stdout" | "stderr" | "meta"`, `message`).
 */
import type { Disposable, Event } from '../emitter';

/** Which limit ended a run. */
export type LimitKind =
  /** The run lasted longer than `wallClockMs`. */
  | 'wallClock'
  /** stdout + stderr passed `maxOutputBytes`; the rest was not logged. */
  | 'outputBytes'
  /** Nothing was printed for `idleMs`. */
  | 'idle';

/** Limits of one run. Absent fields mean "no limit". */
export interface ProcessLimits {
  /** Wall-clock budget in ms, from spawn. */
  wallClockMs?: number;
  /** Budget of stdout + stderr bytes (as received, before redaction). */
  maxOutputBytes?: number;
  /** Longest silence (no byte on stdout or stderr) in ms. */
  idleMs?: number;
  /** Time between SIGTERM to the process group and SIGKILL, when a limit or a stop ends the run. Default 2000. */
  killGraceMs?: number;
}

/** What the child's stdin is. */
export type StdinSpec =
  /** /dev/null: the child sees end-of-file at once (agent CLIs that read stdin when it is not a TTY need this). */
  | { kind: 'ignore' }
  /** This text, then end-of-file (a prompt too long for the command line). */
  | { kind: 'text'; text: string }
  /** A pipe kept open for {@link ProcessSupervisorPort.send}; `initial` is written first. */
  | { kind: 'pipe'; initial?: string };

/** How to start one process. Nothing of the caller's environment is inherited implicitly. */
export interface ProcessSpec {
  /** Caller-chosen id (an execution id, a child id): names the log and record files. `[A-Za-z0-9._-]+`. */
  id: string;
  /** A bare program name looked up on `env.PATH`, or an absolute path. Never a shell command line. */
  program: string;
  /** Arguments, each passed verbatim (no shell ever sees them). Must not contain a secret. */
  args: readonly string[];
  /** Absolute working folder; must exist. */
  cwd: string;
  /** The complete environment of the child (copy what should be inherited). */
  env: Readonly<Record<string, string>>;
  /**
   * Secret environment variables (passkeys, tokens): added to `env`, replaced by `[REDACTED]` in
   * every log line and summary, and refused if they appear in `args`.
   */
  secretEnv?: Readonly<Record<string, string>>;
  /** More strings to replace by `[REDACTED]` in the log (values known secret but not in env); refused in `args` too. */
  redact?: readonly string[];
  /** Default `{ kind: 'ignore' }`. */
  stdin?: StdinSpec;
  /** Folder of the log file `<id>.log` and the record `<id>.proc.json`; created if missing. */
  logDir: string;
  limits?: ProcessLimits;
  /** How many last lines the result keeps for an error summary. Default 40. */
  tailLines?: number;
  /** Free labels stored in the record (agent id, project id, correlation ids…). Never secret. */
  labels?: Readonly<Record<string, string>>;
  /**
   * End the process (its whole group) when the supervisor's process dies, `kill -9` included: a
   * child runtime dies with its server. Off for agents a restarted runner adopts.
   */
  dieWithSupervisor?: boolean;
  /**
   * Enforce `limits.wallClockMs` without the supervisor too: the group ends a grace after the wall
   * clock even if the supervisor is frozen or dead (POSIX). What lets another machine's runner know
   * when a run it cannot see is over.
   */
  wallClockBackstop?: boolean;
}

/** How a run ended. */
export interface ProcessExit {
  id: string;
  pid: number;
  /** The exit code, or null when a signal ended the process. */
  exitCode: number | null;
  /** The signal name (`SIGTERM`, `SIGKILL`, `SIGABRT`…), or null for a normal exit. */
  signal: string | null;
  /** ISO times. */
  startedAt: string;
  endedAt: string;
  durationMs: number;
  /** Bytes received on each stream (before redaction, including bytes past the output limit). */
  stdoutBytes: number;
  stderrBytes: number;
  /** The limit that ended the run, or null. */
  limit: LimitKind | null;
  /** True when someone asked to stop it ({@link ProcessSupervisorPort.stop}). */
  stopped: boolean;
  /** The last lines of stdout and stderr, interleaved as written, redacted: an error summary. */
  tail: string[];
  logFile: string;
}

/** A process as seen now. */
export interface ProcessStatus {
  id: string;
  pid: number;
  state: 'running' | 'exited';
  startedAt: string;
  /** ISO time of the last byte on stdout or stderr, or null. */
  lastOutputAt: string | null;
  stdoutBytes: number;
  stderrBytes: number;
  logFile: string;
  labels: Readonly<Record<string, string>>;
  /** Present once the process has exited. */
  exit?: ProcessExit;
}

/**
 * What is written next to the log when a process starts (`<logDir>/<id>.proc.json`), and
 * completed with `exit` when it ends. A restarted runner reads it to tell "still running"
 * from "ended" or "pid reused by another program" (`checkLiveness` in liveness.ts).
 */
export interface ProcessRecord {
  id: string;
  pid: number;
  /** Process group id (the child leads its own group, so it equals `pid` on POSIX). */
  pgid: number;
  /**
   * When the kernel says the process started, as an opaque token (Linux: boot id + start time in
   * clock ticks from /proc/<pid>/stat; macOS: `ps -o lstart`). Null when it could not be read.
   */
  startToken: string | null;
  startedAt: string;
  /** The resolved absolute path of the program. */
  program: string;
  /** Arguments with secrets redacted. */
  args: string[];
  cwd: string;
  logFile: string;
  /** The limits in force (rewritten when they change): a restarted runner that adopts the process applies them. */
  limits?: ProcessLimits;
  labels: Readonly<Record<string, string>>;
  exit?: ProcessExit;
}

/** What is known now about the process a record names. */
export type Liveness =
  /** Same pid, same start time: the recorded process still runs. */
  | 'running'
  /** No process with that pid (or only its zombie). */
  | 'gone'
  /** The pid now belongs to another process: the recorded one is gone. */
  | 'reused'
  /** The record has no start token, so a live pid proves nothing. */
  | 'unknown';

/** A live look at one pid, as the platform adapter reads it. null: no such process. */
export interface ProcessProbe {
  startToken: string;
  /** Exited but not yet reaped. */
  zombie: boolean;
}

/** One line of a process log (JSON Lines on disk). Field names follow the orchestrator contract's child log entries. */
export interface LogEntry {
  /** 1, 2, 3… in write order across both streams. */
  seq: number;
  /** Milliseconds since the epoch. */
  ts: number;
  stream: 'stdout' | 'stderr' | 'meta';
  /** One line without its newline, redacted. */
  message: string;
  /** False when the line was flushed before its newline arrived (a prompt, a progress bar, a long line). */
  eol?: false;
  /** Structured details of a `meta` entry (start, limit, exit). */
  data?: Record<string, unknown>;
}

/** A slice of a log. */
export interface LogSlice {
  entries: LogEntry[];
  /** Byte offset to read from next time (always at a line boundary). */
  nextOffset: number;
  /** Size of the log file when it was read. */
  size: number;
}

/** Reading logs, for `sc://children/<id>/logs`-style reads and an editor tab that follows a live log. */
export interface LogReaderPort {
  /** Complete entries from `offset` (default 0), at most about `maxBytes` of log (default 256 KiB). */
  read(logFile: string, options?: { offset?: number; maxBytes?: number }): Promise<LogSlice>;
  /** The last `lines` entries. */
  tail(logFile: string, lines: number): Promise<LogEntry[]>;
  /** Calls `listener` with new entries as the log grows, from `offset` (default 0) on. */
  follow(
    logFile: string,
    listener: (entries: LogEntry[]) => void,
    options?: { offset?: number; intervalMs?: number },
  ): Disposable;
}

/** A started process. */
export interface RunningProcess {
  readonly id: string;
  readonly pid: number;
  readonly record: ProcessRecord;
  /** Resolves when the process has exited and its log is complete. Never rejects. */
  readonly exited: Promise<ProcessExit>;
}

/** The process supervisor. */
export interface ProcessSupervisorPort {
  /**
   * Starts a process in its own process group. Resolves once it is spawned; rejects with a
   * `ProcessError` (invalidProgram, programNotFound, cwdMissing, secretInArgs, invalidId,
   * duplicateId — also when the record of that id in `logDir` names a process still running,
   * whoever started it —, spawnFailed) when it could not start.
   */
  start(spec: ProcessSpec): Promise<RunningProcess>;
  /**
   * Makes every check `start` makes (the same refusals) without creating or starting anything:
   * what a caller runs before it records a process it is about to start.
   */
  check(spec: ProcessSpec): Promise<void>;
  /** Writes to the stdin of a process started with `stdin: { kind: 'pipe' }`. */
  send(id: string, text: string): Promise<void>;
  /** Closes the stdin pipe (end-of-file for the child). */
  closeInput(id: string): void;
  /**
   * Replaces the limits of a running process (`killGraceMs` excepted): the wall clock still counts
   * from spawn, the output budget from the first byte, the silence from the last output; a limit
   * already passed ends the run at once.
   */
  updateLimits(id: string, limits: ProcessLimits): void;
  /**
   * Stops a process: stdin closed, SIGTERM to its group, SIGKILL after `graceMs` (default the
   * spec's `killGraceMs`). Resolves with how it ended; an already ended one resolves at once.
   */
  stop(id: string, options?: { graceMs?: number }): Promise<ProcessExit>;
  /** Status of a process started by this supervisor (running or ended), or undefined. */
  status(id: string): ProcessStatus | undefined;
  /** Processes of this supervisor still running. */
  list(): ProcessStatus[];
  /** Stops every running process of this supervisor and waits for them to end. */
  stopAll(graceMs?: number): Promise<ProcessExit[]>;
  /** Fires once per process when it has exited and its log is complete. */
  readonly onDidExit: Event<ProcessExit>;
  /** Reads the record of a process started by any supervisor, or undefined. */
  readRecord(logDir: string, id: string): Promise<ProcessRecord | undefined>;
  /** Every record of a log folder, oldest first (what a restarted runner looks at). */
  listRecords(logDir: string): Promise<ProcessRecord[]>;
  /** Whether the process of a record (from a supervisor that may have died) is still running. */
  checkRecord(record: ProcessRecord): Promise<Liveness>;
  /**
   * Stops the process of a record left by another (dead) supervisor, after checking it is still
   * the same process. Resolves with the liveness found before stopping.
   */
  stopRecorded(record: ProcessRecord, options?: { graceMs?: number }): Promise<Liveness>;
}
