import * as path from 'node:path';
import { checkOwnFiles, confinedPath, mkdirConfined } from '../../files/confinedPath';
import type { LedgerEngine } from '../../ports/store';
import type { McpServerLaunch } from '../launch/clientLaunch';
import type { LogReaderPort, ProcessExit, ProcessSpec, ProcessSupervisorPort } from '../../ports/processes';
import { scUri } from '../../coordination/resources/scUris';
import type {
  ChildCreateInput,
  ChildLimits,
  ChildLimitsInput,
  ChildLogsOutput,
  ChildOutput,
  ChildSendOutput,
  ChildSpawnCodexInput,
  ChildState,
} from './childContracts';
import { childIsLive } from './childStates';
import { childError } from './childErrors';
import { changesLiveLimits, effectiveLimits, MAX_RUNNING_CHILDREN, processLimitsOf } from './childLimits';
import { codexChildLaunch, commandLaunch } from './childLaunch';
import { checkChildProgram } from './childPrograms';
import type { ChildProgramSources } from './childPrograms';
import type { Launch, LaunchPlace } from './childLaunch';
import { readChildLog, toChildLogEntry, waitForLogGrowth } from './childLogs';
import type { ChildLogEntry, LogMark } from './childLogs';
import {
  childDirOf,
  childFileNames,
  childLogPathOf,
  listChildDirsSync,
  readLogResourceSync,
  writeManifestFile,
} from './childFiles';
import type { ChildRow } from './childStore';
import {
  countMessage,
  uncountMessage,
  countRunning,
  getChild,
  insertChild,
  listChildren,
  markExited,
  markFailed,
  markStarted,
  updateManifest,
} from './childStore';
import { childView, correlationOf } from './childView';
import { reconcileForeign, stopForeignChild } from './childReconcile';
import { errorMessage, validationError } from '../../errors';

export interface ChildServiceOptions extends LaunchPlace {
  engine: LedgerEngine;
  /** Which programs `child_create` may run (childPrograms.ts). */
  programs: ChildProgramSources;
  supervisor: ProcessSupervisorPort;
  logs: LogReaderPort;
  /** `<workspace>/.agent-ledger/children`: one folder per child (log, process record, manifest). */
  childrenDir: string;
  clock(): number;
  /** This server process, recorded as the owner of the children it starts. */
  owner: { pid: number; host: string };
  maxRunning?: number;
  /** This ledger's MCP server as a child starts it (`node dist/cli.js mcp serve …`), when known. */
  ledgerServer?: McpServerLaunch;
}

/**
 * Child runtimes: real processes under the process supervisor, recorded in the shared store so
 * every server process of the workspace lists and reads them. The process that started a child
 * owns its input pipe and its live limits; any process on the same machine can read its log and
 * stop it (the supervisor checks the pid still is that process before signalling it).
 */
export class ChildService {
  private readonly exitWrites = new Map<string, Promise<void>>();
  /** Where the last complete read of each log ended, so followers do not re-read from the top. */
  private readonly logMarks = new Map<string, LogMark>();
  private readonly maxRunning: number;

  constructor(private readonly o: ChildServiceOptions) {
    this.maxRunning = o.maxRunning ?? MAX_RUNNING_CHILDREN;
  }

  /** `child_create`: an allowed program (childPrograms.ts) with its arguments, never through a shell. */
  async create(input: ChildCreateInput, opId: string): Promise<ChildOutput & { sent_initial_payload: boolean }> {
    const launch = commandLaunch(input, opId, this.o);
    const view = await this.launch(launch);
    if (input.initial_payload === undefined) return { ...view, sent_initial_payload: false };
    await this.send(launch.childId, input.initial_payload, { op_id: opId });
    return { ...(await this.status(launch.childId, opId)), sent_initial_payload: true };
  }

  /** `child_spawn_codex`: `codex exec` with its real non-interactive flags, the prompt one argument after `--`. */
  async spawnCodex(input: ChildSpawnCodexInput, opId: string): Promise<ChildOutput> {
    return this.launch(this.codexLaunchOf(input, opId));
  }

  /**
   * Every refusal `create` can make before it records anything (program, folder, files, id, the
   * running limit), made without writing: what an idempotent call checks before it reserves its key.
   */
  async checkCreate(input: ChildCreateInput, opId: string): Promise<void> {
    await this.preflight(commandLaunch(input, opId, this.o));
  }

  /** {@link checkCreate} for `spawnCodex`; `planned`: children a batch starts before this one. */
  async checkSpawnCodex(input: ChildSpawnCodexInput, opId: string, planned = 0): Promise<void> {
    await this.preflight(this.codexLaunchOf(input, opId), planned);
  }

  private codexLaunchOf(input: ChildSpawnCodexInput, opId: string): Launch {
    return codexChildLaunch(input, opId, {
      workspace: this.o.workspace,
      env: () => this.o.env(),
      configDir: childDirOf(this.o.childrenDir, input.child_id),
      ledgerServer: this.o.ledgerServer,
    });
  }

  async status(childId: string, opId: string): Promise<ChildOutput> {
    return this.view(await this.row(childId), opId);
  }

  async list(options: { state?: ChildState; limit: number }, opId: string): Promise<ChildOutput[]> {
    const rows = await this.o.engine.read((db) => listChildren(db, options));
    const views = await Promise.all(rows.map(async (r) => this.view(await this.reconcile(r), opId)));
    return (options.state ? views.filter((v) => v.runtime_status.state === options.state) : views).slice(
      0,
      options.limit,
    );
  }

  async attach(childId: string, call: { run_id?: string; op_id: string }): Promise<ChildOutput> {
    const row = await this.row(childId);
    const now = this.o.clock();
    await this.o.engine.write((tx) =>
      updateManifest(tx, row, { what: 'attached', attached_at: now, run_id: call.run_id, op_id: call.op_id }, now),
    );
    return this.afterManifestChange(childId, call.op_id);
  }

  async setRole(childId: string, role: string, call: { run_id?: string; op_id: string }): Promise<ChildOutput> {
    const row = await this.row(childId);
    const now = this.o.clock();
    await this.o.engine.write((tx) =>
      updateManifest(tx, row, { what: 'role', role, run_id: call.run_id, op_id: call.op_id }, now),
    );
    return this.afterManifestChange(childId, call.op_id);
  }

  /** New limits; wall clock, output and silence apply at once (only the owning process can change those). */
  async setLimits(
    childId: string,
    change: ChildLimitsInput,
    call: { run_id?: string; op_id: string },
  ): Promise<ChildOutput> {
    const row = await this.row(childId);
    if (row.state !== 'running')
      throw childError('E-CHILD-NOT-RUNNING', `Child ${childId} is ${row.state}: its limits no longer matter.`, {
        child_id: childId,
        state: row.state,
      });
    const limits = effectiveLimits(change, JSON.parse(row.limits) as ChildLimits);
    if (changesLiveLimits(change)) {
      if (!this.owns(row)) throw this.remote(row, 'change its wall-clock, output or idle limit');
      this.o.supervisor.updateLimits(childId, processLimitsOf(limits));
    }
    const now = this.o.clock();
    await this.o.engine.write((tx) =>
      updateManifest(tx, row, { what: 'limits', limits, run_id: call.run_id, op_id: call.op_id }, now),
    );
    return this.afterManifestChange(childId, call.op_id);
  }

  /** Writes to the child's input: text as is (newline added), anything else as one JSON line. */
  async send(childId: string, payload: unknown, call: { op_id: string }): Promise<ChildSendOutput> {
    const row = await this.row(childId);
    if (row.state !== 'running')
      throw childError('E-CHILD-NOT-RUNNING', `Child ${childId} is ${row.state}.`, {
        child_id: childId,
        state: row.state,
      });
    if (!this.owns(row)) throw this.remote(row, 'write to its input');
    const limits = JSON.parse(row.limits) as ChildLimits;
    const text =
      typeof payload === 'string'
        ? payload.endsWith('\n')
          ? payload
          : `${payload}\n`
        : `${JSON.stringify(payload ?? null)}\n`;
    const bytes = Buffer.byteLength(text, 'utf8');
    // The message is counted before it is written, in one transaction with the check: two racing sends cannot both pass a spent limit.
    const sent = await this.o.engine.write(async (tx) => {
      const current = await getChild(tx, childId);
      const max = current ? (JSON.parse(current.limits) as ChildLimits).messages : null;
      if (current && max !== null && current.messages_sent >= max) return { spent: max };
      return { sent: await countMessage(tx, row, bytes, call.op_id, this.o.clock()) };
    });
    if ('spent' in sent) {
      throw childError(
        'E-CHILD-LIMIT',
        `Child ${childId} has received its ${sent.spent} message(s): its messages limit is spent.`,
        { child_id: childId, limit: 'messages', messages: sent.spent },
      );
    }
    try {
      await this.o.supervisor.send(childId, text);
    } catch (err) {
      await this.o.engine.write((tx) => uncountMessage(tx, childId, this.o.clock()));
      throw err;
    }
    return {
      ...correlationOf(row, call.op_id),
      child_id: childId,
      sent_bytes: bytes,
      messages_sent: sent.sent,
      messages_limit: limits.messages,
    };
  }

  /** Stops the child (SIGTERM to its group, SIGKILL after `graceMs`); an ended one is returned as is. */
  async kill(childId: string, graceMs: number, call: { op_id: string }): Promise<ChildOutput> {
    let row = await this.reconcile(await this.row(childId));
    if (childIsLive(row.state)) {
      if (this.owns(row)) {
        await this.o.supervisor.stop(childId, { graceMs });
        await this.exitWrites.get(childId);
      } else if (row.owner_host === this.o.owner.host) {
        await this.stopForeign(row, graceMs);
      } else {
        throw this.remote(row, 'stop it');
      }
      row = await this.row(childId);
    }
    return this.view(row, call.op_id);
  }

  /** `child_logs`: entries after `fromSeq`; with none yet and the child running, waits up to `waitMs` for a line. */
  async logs(
    childId: string,
    options: { fromSeq: number; limit: number; waitMs: number },
    opId: string,
  ): Promise<ChildLogsOutput> {
    const row = await this.row(childId);
    // The folder may have been swapped for a link since the child started: never read through it.
    const logPath = confinedPath(this.o.workspace, row.log_path);
    const read = async () => {
      const result = await readChildLog(
        this.o.logs,
        logPath,
        options.fromSeq,
        options.limit,
        this.logMarks.get(childId),
      );
      if (result.mark) this.logMarks.set(childId, result.mark);
      return result;
    };
    let slice = await read();
    let state = (await this.reconcile(row)).state;
    if (slice.entries.length === 0 && options.waitMs > 0 && childIsLive(state)) {
      await waitForLogGrowth(this.o.logs, logPath, slice.offset, options.waitMs);
      slice = await read();
      state = (await this.reconcile(await this.row(childId))).state;
    }
    const logs = slice.entries.map((e) => toChildLogEntry(e, row));
    return {
      ...correlationOf(row, opId),
      child_id: childId,
      uri: scUri.childLogs(childId),
      logs,
      next_seq: logs.length > 0 ? logs[logs.length - 1].seq : options.fromSeq,
      state,
    };
  }

  /**
   * The `sc://children/<id>/logs` resource: the last `limit` entries, read synchronously from the
   * files of this machine (the process record gives the correlation ids), for resources/read.
   */
  readLogResource(childId: string, limit = 1000): { childId: string; logs: ChildLogEntry[] } {
    return readLogResourceSync(this.o.workspace, this.o.childrenDir, childId, limit);
  }

  /** Ids of the children whose files are on this machine, most recently changed first. */
  listLogResourcesSync(limit = 100): string[] {
    return listChildDirsSync(this.o.childrenDir, limit);
  }

  /** Stops a child this process started, for a batch rollback; records it stopped. */
  async rollback(childId: string): Promise<void> {
    await this.kill(childId, 500, { op_id: `rollback-${childId}` });
  }

  /** Stops every child this process started (the server is going away). */
  async dispose(): Promise<void> {
    await this.o.supervisor.stopAll(1000);
    await Promise.all(this.exitWrites.values());
  }

  /** The process the supervisor starts for a launch. */
  private specOf(l: Launch): ProcessSpec {
    const labels = Object.fromEntries(
      Object.entries({ child_id: l.childId, ...l.corr }).filter((e): e is [string, string] => e[1] !== null),
    );
    return {
      id: l.childId,
      program: l.program,
      args: l.args,
      cwd: l.cwd,
      env: l.env,
      stdin: l.stdin,
      logDir: childDirOf(this.o.childrenDir, l.childId),
      limits: processLimitsOf(l.limits),
      labels,
      // A child dies with its server, `kill -9` included (the supervisor's watchdog).
      dieWithSupervisor: true,
    };
  }

  /** Every refusal of a launch before it is recorded, without writing anything (a refused call writes nothing). */
  private async preflight(l: Launch, planned = 0): Promise<void> {
    const dir = childDirOf(this.o.childrenDir, l.childId);
    // The child's folder comes with the workspace: a link planted in it is refused before anything is written.
    const names = childFileNames(l.childId, l.manifestName);
    if (names.indexOf(l.manifestName) !== names.length - 1)
      throw validationError(`manifest_path ${l.manifestName} is the name of the child's own log or process record`, {
        manifest_path: l.manifestName,
      });
    checkOwnFiles(this.o.workspace, dir, names);
    if (l.kind === 'command') await checkChildProgram(l.program, this.o.programs);
    await this.o.supervisor.check(this.specOf(l));
    const { exists, running } = await this.o.engine.read(async (db) => ({
      exists: (await getChild(db, l.childId)) !== undefined,
      running: await countRunning(db),
    }));
    if (exists) throw this.exists(l.childId);
    if (running + planned >= this.maxRunning) throw this.tooMany(running);
  }

  private exists(childId: string) {
    return childError('E-CHILD-EXISTS', `A child with id ${childId} already exists; child ids are never reused.`, {
      child_id: childId,
    });
  }

  private tooMany(running: number) {
    return childError(
      'E-CHILD-LIMIT',
      `${running} children already run in this workspace (at most ${this.maxRunning}); stop one first.`,
      { limit: 'children', max: this.maxRunning },
    );
  }

  private async launch(l: Launch): Promise<ChildOutput> {
    await this.preflight(l);
    const dir = childDirOf(this.o.childrenDir, l.childId);
    const logPath = childLogPathOf(this.o.childrenDir, l.childId);
    const manifestPath = path.join(dir, l.manifestName);
    const now = this.o.clock();
    const child = {
      child_id: l.childId,
      kind: l.kind,
      program: l.program,
      args: l.args,
      workdir: l.workdir,
      role: l.role,
      limits: l.limits,
      metadata: l.metadata,
      manifest_path: manifestPath,
      log_path: logPath,
      owner_pid: this.o.owner.pid,
      owner_host: this.o.owner.host,
    };
    // Checked again in the write: another process may have started one meanwhile.
    await this.o.engine.write(async (tx) => {
      const running = await countRunning(tx);
      if (running >= this.maxRunning) throw this.tooMany(running);
      if (!(await insertChild(tx, child, l.corr, now))) throw this.exists(l.childId);
    });
    let row = await this.row(l.childId);
    try {
      mkdirConfined(this.o.workspace, dir);
      const started = await this.o.supervisor.start(this.specOf(l));
      this.exitWrites.set(
        l.childId,
        started.exited.then((exit) => this.recordExit(row, exit)),
      );
      const running = await this.o.engine.write((tx) =>
        markStarted(tx, row, started.pid, Date.parse(started.record.startedAt), this.o.clock()),
      );
      // Stopped by another process while it was starting: its end is recorded already, the process must not outlive it.
      if (!running) await this.o.supervisor.stop(l.childId, { graceMs: 0 });
    } catch (err) {
      const message = errorMessage(err);
      await this.o.engine.write((tx) => markFailed(tx, row, message, this.o.clock()));
      throw err;
    }
    row = await this.row(l.childId);
    await this.writeManifest(row);
    return this.view(row, l.corr.op_id ?? '');
  }

  private async recordExit(row: ChildRow, exit: ProcessExit): Promise<void> {
    try {
      await this.o.engine.write((tx) => markExited(tx, row, exit, 'exited', this.o.clock()));
    } catch {
      // The store closed under us (the server is going away): readers find the exit in the process record.
    }
  }

  /** A child started by another process on this machine: stopped, and its end recorded here if its owner does not. */
  private async stopForeign(row: ChildRow, graceMs: number): Promise<void> {
    const exit = await stopForeignChild(
      row,
      this.o.supervisor,
      childDirOf(this.o.childrenDir, row.child_id),
      graceMs,
      this.o.clock,
    );
    const now = this.o.clock();
    await this.o.engine.write(async (tx) => {
      if (!(await markExited(tx, row, exit, 'exited', now)))
        await tx.run('UPDATE children SET stopped = 1, updated_at = ? WHERE child_id = ?', [now, row.child_id]);
    });
  }

  /** A starting or running row of another process whose process has ended: recorded as such (repairs the store). */
  private async reconcile(row: ChildRow): Promise<ChildRow> {
    if (!childIsLive(row.state) || this.owns(row) || row.owner_host !== this.o.owner.host) return row;
    const found = await reconcileForeign(
      row,
      this.o.supervisor,
      childDirOf(this.o.childrenDir, row.child_id),
      this.o.clock(),
    );
    if (!found) return row;
    await this.o.engine.write((tx) => markExited(tx, row, found.exit, found.state, this.o.clock()));
    return this.row(row.child_id);
  }

  private owns(row: ChildRow): boolean {
    return (
      row.owner_pid === this.o.owner.pid &&
      row.owner_host === this.o.owner.host &&
      this.o.supervisor.status(row.child_id) !== undefined
    );
  }

  private remote(row: ChildRow, what: string) {
    return childError(
      'E-CHILD-REMOTE',
      `Child ${row.child_id} runs under another server process (pid ${row.owner_pid} on ${row.owner_host}); only that one can ${what}.`,
      {
        child_id: row.child_id,
        owner_pid: row.owner_pid,
        owner_host: row.owner_host,
      },
    );
  }

  private async row(childId: string): Promise<ChildRow> {
    const row = await this.o.engine.read((db) => getChild(db, childId));
    if (!row) throw childError('E-CHILD-NOT-FOUND', `No child ${childId} in this workspace.`, { child_id: childId });
    return row;
  }

  private async afterManifestChange(childId: string, opId: string): Promise<ChildOutput> {
    const row = await this.row(childId);
    await this.writeManifest(row);
    return this.view(row, opId);
  }

  /** The manifest file, kept in step with the store (only on the machine where the child runs). */
  private async writeManifest(row: ChildRow): Promise<void> {
    if (row.owner_host === this.o.owner.host) writeManifestFile(this.o.workspace, row);
  }

  private async view(row: ChildRow, opId: string): Promise<ChildOutput> {
    return childView(await this.reconcile(row), opId);
  }
}
