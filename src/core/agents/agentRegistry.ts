import * as fs from 'node:fs';
import * as path from 'node:path';
import type { AsyncSqlReader, AsyncSqlWriter, LedgerEngine } from '../ports/store';
import { LedgerError } from '../errors';
import type { Clock } from '../time';
import { iso } from '../time';
import { appendEvent } from '../events/eventLog';
import { IndexedFiles } from '../files/indexedFiles';
import { listConfined, mkdirConfined } from '../files/confinedPath';
import type { AgentDefinition, AgentList, AgentProblem } from './agentModel';
import { defaultAgents, isAgentFile, parseAgentFile } from './agentFiles';
import { builtInsKey, reconcileBuiltIns, writeBuiltIns } from './builtInAgents';
import type { BuiltInsOutcome } from './builtInAgents';
import type { AgentListResult, AgentSummary } from './agentContracts';
import { agentsFolder } from '../ledgerFiles';

/**
 * The agent definitions of a workspace. The files are the truth and are read again whenever
 * they change on disk; the `agents` table is an index of them that writable processes keep
 * current (with an event per change) so views and resource notifications can follow.
 */
export class AgentRegistry extends IndexedFiles<AgentDefinition> {
  /** Definition files (by stem) that link outside the workspace, as of the last listing. */
  private linkedOut = new Map<string, LedgerError>();
  /** The built-ins' last outcome and what it was read from (builtInsKey). */
  private builtIns: { key: string; outcome: BuiltInsOutcome } | undefined;
  /** The index writes started by listings that wrote the built-ins (see current), in order. */
  private indexing: Promise<void> = Promise.resolve();

  constructor(db: LedgerEngine, workspace: string, clock: Clock, options: { readonly: boolean }) {
    super(db, workspace, clock, options, agentsFolder, parseAgentFile);
  }

  /** Every valid definition by name, plus the files that could not be used; brings the index up to date. */
  async list(): Promise<AgentList> {
    const result = this.current();
    await this.indexing;
    await this.syncIndex(result.agents);
    return result;
  }

  /** agent_list: every valid definition in short, plus the files that could not be used; brings the index up to date. */
  async summaries(): Promise<AgentListResult> {
    const { agents, problems } = await this.list();
    return { agents: agents.map(agentSummary), problems };
  }

  /** One definition (agent_get); AgentNotFound (or ConfigError when its file is broken). */
  async get(name: string): Promise<AgentDefinition> {
    const list = await this.list();
    refuseLinkedOut(this.linkedOut, name);
    return findAgent(list, name);
  }

  /** One definition as the files are now, without touching the index (resources, views). */
  lookup(name: string): AgentDefinition {
    const list = this.current();
    refuseLinkedOut(this.linkedOut, name);
    return findAgent(list, name);
  }

  /** Resolves once the index writes that listings started have ended (dispose waits for them). */
  indexed(): Promise<void> {
    return this.indexing;
  }

  /**
   * The definitions as the files are now. Reads leave the index alone, but a listing that writes
   * the built-ins (first use, a built-in added beside a person's files, a newer built-in) indexes
   * what it wrote at once: the Board's agents come from the index, whoever listed first.
   */
  current(): AgentList {
    const folder = this.folder;
    let wrote = false;
    // A link out (the folder or a definition) is refused: a definition's prompt goes into launch prompts.
    if (!fs.existsSync(folder) && !isLink(folder)) {
      // First use: write the defaults, or show them as they would be in a read-only process.
      if (this.options.readonly)
        return { agents: defaultAgents.map((a) => ({ ...a, file: `${agentsFolder}/${a.name}.yaml` })), problems: [] };
      wrote = createDefaults(this.workspace, folder);
    }
    const first = this.read(folder);
    const key = builtInsKey(folder, first.names, first.taken);
    let builtIns = this.builtIns?.key === key ? this.builtIns.outcome : undefined;
    if (!builtIns) {
      builtIns = reconcileBuiltIns(this.workspace, folder, first.names, first.taken, this.options.readonly);
      this.builtIns = builtIns.wrote ? undefined : { key, outcome: builtIns };
    }
    const { agents, problems } = builtIns.wrote ? this.read(folder) : first;
    if (wrote || builtIns.wrote) this.indexSoon(agents);
    return { agents: [...agents, ...builtIns.unwritten], problems: [...problems, ...builtIns.problems] };
  }

  /**
   * Indexes `agents` after the index writes already started. A failure leaves the index as it was
   * for the next listing to bring up to date; a store failure (closed, busy, damaged) is said by
   * the store on every call, anything else is logged.
   */
  private indexSoon(agents: AgentDefinition[]): void {
    this.indexing = this.indexing
      .then(() => this.syncIndex(agents))
      .catch((err) => {
        if (!LedgerError.is(err, 'StoreError')) console.error('[agent-ledger] could not index the agent files:', err);
      });
  }

  /** The folder's definitions, the agent-file names in it and the agent names those files take. */
  private read(folder: string): AgentList & { names: string[]; taken: Set<string> } {
    const agents: AgentDefinition[] = [];
    const problems: AgentProblem[] = [];
    const listing = listConfined(this.workspace, agentsFolder);
    this.linkedOut = new Map();
    for (const { name, error } of listing.refused) {
      if (!isAgentFile(name)) continue;
      problems.push({ file: `${agentsFolder}/${name}`, message: error.message });
      this.linkedOut.set(name.replace(/\.(ya?ml|md)$/, ''), error);
    }
    const names = listing.names.filter(isAgentFile);
    const stem = (name: string) => name.replace(/\.(ya?ml|md)$/, '');
    for (const name of names) {
      const file = path.join(folder, name);
      try {
        const agent = this.cache.get(file);
        if (!agent) continue;
        const twin = agents.find((a) => a.name === agent.name);
        if (twin)
          problems.push({ file: agent.file, message: `agent "${agent.name}" is already defined in ${twin.file}` });
        else agents.push(agent);
      } catch (err) {
        problems.push({ file: this.relative(file), message: (err as Error).message });
      }
    }
    const taken = new Set([...agents.map((a) => a.name), ...names.map(stem), ...this.linkedOut.keys()]);
    return { agents, problems, names, taken };
  }

  /** Brings the index up to date; costs a write only when a definition changed. */
  private async syncIndex(agents: AgentDefinition[]): Promise<void> {
    if (this.options.readonly) return;
    const wanted = new Map(agents.map((a) => [a.name, JSON.stringify(a)]));
    if (!(await this.db.read((db) => indexDiffers(db, wanted)))) return;
    const now = iso(this.clock.now());
    await this.db.write((tx) => applyIndex(tx, agents, wanted, now));
  }
}

/**
 * Writes the default definitions (and the record of them) into a fresh folder and renames it
 * into place (true when it did), so another process sees either no agents folder or a complete one; a folder
 * someone else put there first (a user, or a racing process) wins and is never overwritten —
 * reconcileBuiltIns then adds the built-ins it lacks.
 */
function createDefaults(workspace: string, folder: string): boolean {
  mkdirConfined(workspace, path.dirname(folder));
  const staging = fs.mkdtempSync(path.join(path.dirname(folder), '.agents-'));
  try {
    writeBuiltIns(workspace, staging);
    fs.renameSync(staging, folder);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'ENOTEMPTY' && code !== 'EEXIST' && code !== 'EPERM') throw err;
    return false;
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

function isLink(file: string): boolean {
  try {
    return fs.lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
}

/**
 * Asking for an agent whose file links outside fails loudly, even when another file defines the
 * same name: a committed link named after an agent is an attempt to read a file into its prompt.
 */
function refuseLinkedOut(linkedOut: ReadonlyMap<string, LedgerError>, name: string): void {
  const error = linkedOut.get(name.trim());
  if (error) throw error;
}

function findAgent({ agents, problems }: AgentList, name: string): AgentDefinition {
  const wanted = name.trim();
  const agent = agents.find((a) => a.name === wanted);
  if (agent) return agent;
  const broken = problems.find((p) => path.posix.basename(p.file).replace(/\.(ya?ml|md)$/, '') === wanted);
  if (broken)
    throw new LedgerError(
      'ConfigError',
      `agent "${wanted}" is defined in ${broken.file}, which cannot be used: ${broken.message}`,
      { agent: wanted, file: broken.file },
    );
  const known = agents.map((a) => a.name).join(', ') || 'none';
  throw new LedgerError(
    'AgentNotFound',
    `Agent ${JSON.stringify(wanted)} not found (defined agents: ${known}; add one as ${agentsFolder}/<name>.yaml)`,
    { agent: wanted },
  );
}

async function indexDiffers(db: AsyncSqlReader, wanted: Map<string, string>): Promise<boolean> {
  const rows = await db.all<{ name: string; definition: string }>('SELECT name, definition FROM agents');
  return rows.length !== wanted.size || rows.some((r) => wanted.get(r.name) !== r.definition);
}

async function applyIndex(
  tx: AsyncSqlWriter,
  agents: AgentDefinition[],
  wanted: Map<string, string>,
  now: string,
): Promise<void> {
  // Compared again under the lock: another process may have indexed the same change.
  const rows = new Map(
    (await tx.all<{ name: string; definition: string }>('SELECT name, definition FROM agents')).map((r) => [
      r.name,
      r.definition,
    ]),
  );
  for (const agent of agents) {
    const definition = wanted.get(agent.name)!;
    if (rows.get(agent.name) === definition) continue;
    await tx.run(
      `INSERT INTO agents (name, file, client, model, description, definition, indexed_at) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT(name) DO UPDATE SET file = excluded.file, client = excluded.client, model = excluded.model,
         description = excluded.description, definition = excluded.definition, indexed_at = excluded.indexed_at`,
      [agent.name, agent.file, agent.client, agent.model, agent.description, definition, now],
    );
    await appendEvent(tx, {
      ts: now,
      kind: 'agent.indexed',
      entity: 'agent',
      entityId: agent.name,
      payload: { file: agent.file, added: !rows.has(agent.name) },
    });
  }
  for (const name of rows.keys()) {
    if (wanted.has(name)) continue;
    await tx.run('DELETE FROM agents WHERE name = ?', [name]);
    await appendEvent(tx, { ts: now, kind: 'agent.removed', entity: 'agent', entityId: name });
  }
}

function agentSummary(a: AgentDefinition): AgentSummary {
  return { name: a.name, description: a.description, client: a.client, model: a.model, scope: a.scope, file: a.file };
}
