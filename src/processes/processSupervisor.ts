/**
 * The process supervisor: the only place the product starts agent CLIs and child runtimes
 * (as src/git/ is the only place git runs). It checks a spec before anything runs (program
 * name, working folder, no secret on the command line), starts each process in its own group
 * with an explicit environment, and keeps the running ones for input, stop and status.
 */
import * as fs from 'node:fs';
import { checkOwnFiles, mkdirConfined } from '../core/files/confinedPath';
import { Emitter } from '../core/emitter';
import { ProcessError } from '../core/runtime/processErrors';
import type {
  Liveness,
  ProcessExit,
  ProcessLimits,
  ProcessRecord,
  ProcessSpec,
  ProcessStatus,
  ProcessSupervisorPort,
  RunningProcess,
} from '../core/ports/processes';
import { Redactor, secretForms } from './lineFramer';
import { resolveProgram } from './programPath';
import { checkRecord, listRecords, logFileOf, readRecord, recordFileOf, stopRecorded } from './processRecords';
import { SupervisedProcess } from './supervisedProcess';
import type { SpawnPlan } from './supervisedProcess';

const validId = /^(?!\.{1,2}$)[A-Za-z0-9._-]{1,128}$/;
/** How many ended processes `status()` still answers for. */
const keptEnded = 200;

export class ProcessSupervisor implements ProcessSupervisorPort {
  private readonly running = new Map<string, SupervisedProcess>();
  /** Ids being spawned: reserved so two racing starts cannot both pass the duplicate check. */
  private readonly starting = new Set<string>();
  private readonly ended = new Map<string, ProcessStatus>();
  private readonly _onDidExit = new Emitter<ProcessExit>();
  readonly onDidExit = this._onDidExit.event;

  /**
   * @param options.root The folder every log folder must stay inside, by its real path (the
   * workspace): a log folder that leads outside through a link is refused before anything runs.
   */
  constructor(private readonly options: { root?: string } = {}) {}

  async start(spec: ProcessSpec): Promise<RunningProcess> {
    this.checkId(spec);
    this.starting.add(spec.id);
    try {
      return await this.startChecked(spec);
    } finally {
      this.starting.delete(spec.id);
    }
  }

  async check(spec: ProcessSpec): Promise<void> {
    this.checkId(spec);
    await this.planOf(spec);
  }

  private checkId(spec: ProcessSpec): void {
    if (!validId.test(spec.id))
      throw new ProcessError('invalidId', `"${spec.id}" is not a process id: use letters, digits, ".", "_" and "-".`, {
        id: spec.id,
      });
    if (this.running.has(spec.id) || this.starting.has(spec.id))
      throw new ProcessError('duplicateId', `A process with id ${spec.id} is already running.`, { id: spec.id });
  }

  async send(id: string, text: string): Promise<void> {
    return this.get(id).send(text);
  }

  closeInput(id: string): void {
    this.get(id).closeInput();
  }

  updateLimits(id: string, limits: ProcessLimits): void {
    this.get(id).updateLimits(limits);
  }

  async stop(id: string, options: { graceMs?: number } = {}): Promise<ProcessExit> {
    const ended = this.ended.get(id)?.exit;
    if (ended && !this.running.get(id)) return ended;
    return this.get(id).stop(options.graceMs);
  }

  status(id: string): ProcessStatus | undefined {
    return this.running.get(id)?.status() ?? this.ended.get(id);
  }

  list(): ProcessStatus[] {
    return [...this.running.values()].map((p) => p.status());
  }

  readRecord(logDir: string, id: string): Promise<ProcessRecord | undefined> {
    return readRecord(logDir, id);
  }

  listRecords(logDir: string): Promise<ProcessRecord[]> {
    return listRecords(logDir);
  }

  checkRecord(record: ProcessRecord): Promise<Liveness> {
    return checkRecord(record);
  }

  stopRecorded(record: ProcessRecord, options: { graceMs?: number } = {}): Promise<Liveness> {
    return stopRecorded(record, options.graceMs);
  }

  async stopAll(graceMs?: number): Promise<ProcessExit[]> {
    return Promise.all(this.list().map((s) => this.stop(s.id, { graceMs })));
  }

  /** Stops every running process; the supervisor leaves no orphan behind when it goes. */
  async dispose(): Promise<void> {
    await this.stopAll();
    this._onDidExit.dispose();
  }

  private async startChecked(spec: ProcessSpec): Promise<RunningProcess> {
    const plan = await this.planOf(spec);
    if (this.options.root) mkdirConfined(this.options.root, spec.logDir, 0o700);
    else fs.mkdirSync(spec.logDir, { recursive: true, mode: 0o700 });
    const started = await SupervisedProcess.start(plan, (exit, status) => this.exitedOf(exit, status));
    if (started.running) this.running.set(spec.id, started);
    return started;
  }

  /** Every check of a spec, before anything is created or started (`check` and `start` make the same ones). */
  private async planOf(spec: ProcessSpec): Promise<SpawnPlan> {
    const env: Record<string, string> = { ...spec.env, ...spec.secretEnv };
    const secrets = [...Object.values(spec.secretEnv ?? {}), ...(spec.redact ?? [])].filter((s) => s.length > 0);
    refuseSecretsInArgs(spec, secrets);
    const programPath = resolveProgram(spec.program, env.PATH);
    if (!isFolder(spec.cwd))
      throw new ProcessError('cwdMissing', `The working folder ${spec.cwd} does not exist.`, { cwd: spec.cwd });
    // The log and the record are the supervisor's own files: a link planted at either name (or a
    // log folder leading outside the root) is refused before anything runs.
    const own = [logFileOf(spec.logDir, spec.id), recordFileOf(spec.logDir, spec.id)].map((f) =>
      f.slice(spec.logDir.length + 1),
    );
    checkOwnFiles(this.options.root ?? spec.logDir, spec.logDir, own);
    const previous = await readRecord(spec.logDir, spec.id);
    if (previous && (await checkRecord(previous)) === 'running') {
      throw new ProcessError(
        'duplicateId',
        `Process ${spec.id} (pid ${previous.pid}) is still running, started by another supervisor.`,
        { id: spec.id, pid: previous.pid },
      );
    }
    return { spec, programPath, env, logFile: logFileOf(spec.logDir, spec.id), redactor: new Redactor(secrets) };
  }

  private get(id: string): SupervisedProcess {
    const proc = this.running.get(id);
    if (proc) return proc;
    if (this.ended.has(id)) throw new ProcessError('notRunning', `Process ${id} has ended.`, { id });
    throw new ProcessError('unknownProcess', `No process ${id} was started by this supervisor.`, { id });
  }

  private exitedOf(exit: ProcessExit, status: ProcessStatus): void {
    this.running.delete(exit.id);
    this.ended.delete(exit.id);
    this.ended.set(exit.id, status);
    if (this.ended.size > keptEnded) this.ended.delete(this.ended.keys().next().value as string);
    this._onDidExit.fire(exit);
  }
}

function isFolder(dir: string): boolean {
  try {
    return fs.statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

/** Secrets travel in the environment only: an argument is visible to every user of the machine (`ps`). */
function refuseSecretsInArgs(spec: ProcessSpec, secrets: readonly string[]): void {
  for (const [index, arg] of [spec.program, ...spec.args].entries()) {
    if (secrets.some((secret) => secretForms(secret).some((form) => arg.includes(form)))) {
      throw new ProcessError(
        'secretInArgs',
        `Argument ${index} contains a secret; pass secrets in the environment (secretEnv), never on the command line.`,
        { index },
      );
    }
  }
}
