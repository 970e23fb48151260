/**
 * Agent login (the agent-PM contract's `authenticate`): a passkey stored as its scrypt hash and
 * compared in constant time, or the single-use ticket a runner put in its instance's environment.
 * One session per (agent, project): a second login while one is active is refused. The same
 * refusal whether the agent or the passkey was wrong, after the same work. Wrong passkeys are
 * throttled per connection and slowed per agent (loginThrottle.ts); tickets are not.
 */
import type { AsyncSqlWriter, LedgerEngine } from '../../ports/store';
import { LedgerError, validationError } from '../../errors';
import { projectKey } from '../../ids';
import type { AgentDirectory, ProjectRow } from './projectRows';
import type { AgentDefinition } from '../../agents/agentModel';
import { agentDefinitionOrNull, appendPmEvent, projectRowOf } from './projectRows';
import { hashPasskey, hashSessionToken, newSessionToken, verifyPasskey } from './passkey';
import type { PasskeyHash, ScryptParams } from './passkey';
import { activeSessionOf, endExpiredSessions } from './agentSessionRows';
import { LoginThrottle } from './loginThrottle';
import type { LoginLimits } from './loginThrottle';
import { connectionIdentity } from '../../caller';
import { defaultLimits } from '../../limits/ledgerLimits';

export interface AuthenticateResult {
  session_token: string;
  expires_in: number;
  agent_name: string;
  project_name: string;
  system_prompt: string;
  instruction: string;
}

/** The contract's refusal of a login, the same whether the agent or the passkey was wrong. */
export const invalidLoginMessage = 'Invalid agent_id or passkey';
/** The contract's refusal of a second instance of one (agent, project). */
export const alreadyRunningMessage = 'Agent instance already running for this project';

interface CredentialRow {
  passkey_hash: string;
  salt: string;
  scrypt_params: string;
}

/** Compared against when the agent has no passkey, so a missing agent costs the same time as a wrong passkey. */
let decoy: Promise<PasskeyHash> | undefined;

export class AgentLogin {
  private readonly throttle: LoginThrottle;

  constructor(
    private readonly engine: LedgerEngine,
    private readonly agents: AgentDirectory,
    private readonly now: () => Date,
    private readonly sessionTtlSeconds: number,
    private readonly scryptParams?: ScryptParams,
    limits: LoginLimits = defaultLimits,
  ) {
    this.throttle = new LoginThrottle(engine, () => now().getTime(), limits);
  }

  /** Sets (or replaces) an agent's passkey; only its scrypt hash, salt and parameters are stored. */
  async setPasskey(agentId: string, passkey: string): Promise<void> {
    if (!agentDefinitionOrNull(this.agents, agentId))
      throw new LedgerError(
        'AgentNotFound',
        `Agent ${agentId} not found (list agents with \`agent-ledger agent list\`)`,
        { agent_id: agentId },
      );
    // A passkey is one line: a second one is a paste or a file gone wrong, never what the agent will type.
    if (/[\r\n]/.test(passkey))
      throw validationError(
        `a passkey is one line, and this one holds a line break (${passkey.split(/\r\n|\r|\n/).length} lines); pipe exactly one line, e.g. printf '%s' "$PASSKEY" | agent-ledger agent passkey ${agentId}`,
      );
    if (passkey.length < 12)
      throw validationError(
        'a passkey needs at least 12 characters (or let `agent-ledger agent passkey <name> --generate` make one)',
      );
    const h = await hashPasskey(passkey, this.scryptParams);
    const ts = this.now().toISOString();
    await this.engine.write(async (tx) => {
      await tx.run(
        `INSERT INTO agent_credentials (agent, passkey_hash, salt, scrypt_params, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (agent) DO UPDATE SET passkey_hash = excluded.passkey_hash, salt = excluded.salt, scrypt_params = excluded.scrypt_params, updated_at = excluded.updated_at`,
        [agentId, h.hash, h.salt, JSON.stringify(h.params), ts, ts],
      );
      await appendPmEvent(tx, { ts, kind: 'agent.passkey_set', entity: 'agent', entityId: agentId });
    });
  }

  /** `source`: the connection the login comes from (this process unless the face knows better). */
  async authenticate(
    agentId: string,
    passkey: string,
    projectRef: string | number,
    source: string = connectionIdentity(),
  ): Promise<AuthenticateResult> {
    const project = await this.engine.read((db) => projectRowOf(db, projectRef));
    const { sourceFailures } = await this.throttle.admit(agentId, source);
    const agent = agentDefinitionOrNull(this.agents, agentId);
    const stored = await this.engine.read((db) =>
      db.get<CredentialRow>('SELECT passkey_hash, salt, scrypt_params FROM agent_credentials WHERE agent = ?', [
        agentId,
      ]),
    );
    // Slow work (scrypt) before the write, and the same work whether the agent exists or not.
    decoy ??= hashPasskey('agent-ledger decoy passkey', this.scryptParams);
    const against: PasskeyHash = stored
      ? { hash: stored.passkey_hash, salt: stored.salt, params: JSON.parse(stored.scrypt_params) as ScryptParams }
      : await decoy;
    const matches = await verifyPasskey(passkey, against);
    if (!matches || !stored || !agent) {
      await this.throttle.failed(agentId, source);
      throw new LedgerError('Unauthorized', invalidLoginMessage, { error: invalidLoginMessage });
    }
    const session = await this.openSession(agentId, project, agent, async () => null);
    if (sourceFailures > 0) await this.throttle.succeeded(source);
    return session;
  }

  /**
   * Logs in the instance a runner launched, with the single-use ticket the runner put in its MCP
   * server's environment instead of a passkey: the session is bound to the run's execution log,
   * and the ticket cannot be used again. Refused like a wrong passkey when the ticket is not this
   * (agent, project)'s or has expired. `sessionToken`: the session's token when the server derives
   * it (an HTTP server, from the agent's launch token); a random one otherwise.
   */
  async authenticateWithTicket(
    agentId: string,
    ticket: string,
    projectRef: string | number,
    sessionToken?: string,
  ): Promise<AuthenticateResult> {
    const project = await this.engine.read((db) => projectRowOf(db, projectRef));
    const agent = agentDefinitionOrNull(this.agents, agentId);
    const refused = (): LedgerError =>
      new LedgerError('Unauthorized', invalidLoginMessage, { error: invalidLoginMessage });
    if (!agent) throw refused();
    // The ticket is spent in the same transaction that opens the session.
    return this.openSession(
      agentId,
      project,
      agent,
      async (tx, nowIso) => {
        const row = await tx.get<{ execution_id: number | null }>(
          'SELECT execution_id FROM agent_instances WHERE agent = ? AND project_id = ? AND ticket_hash = ? AND ticket_expires_at > ?',
          [agentId, project.id, hashSessionToken(ticket), nowIso],
        );
        if (!row) throw refused();
        await tx.run(
          'UPDATE agent_instances SET ticket_hash = NULL, ticket_expires_at = NULL WHERE agent = ? AND project_id = ?',
          [agentId, project.id],
        );
        return row.execution_id === null ? null : Number(row.execution_id);
      },
      sessionToken,
    );
  }

  /** One session per (agent, project): refused while another is active. */
  private async openSession(
    agentId: string,
    project: ProjectRow,
    agent: AgentDefinition,
    runOf: (tx: AsyncSqlWriter, nowIso: string) => Promise<number | null>,
    given?: string,
  ): Promise<AuthenticateResult> {
    const { token, tokenHash } = given ? { token: given, tokenHash: hashSessionToken(given) } : newSessionToken();
    const now = this.now();
    const nowIso = now.toISOString();
    await this.engine.write(async (tx) => {
      const executionId = await runOf(tx, nowIso);
      const assigned = await tx.get<{ agent: string }>(
        'SELECT agent FROM project_agents WHERE project_id = ? AND agent = ?',
        [project.id, agentId],
      );
      if (!assigned) {
        throw new LedgerError('Unauthorized', `Agent ${agentId} is not assigned to project ${projectKey(project.id)}`, {
          error: 'Agent is not assigned to this project',
          project_id: projectKey(project.id),
        });
      }
      await endExpiredSessions(tx, agentId, project.id, nowIso);
      if (await activeSessionOf(tx, agentId, project.id, nowIso)) {
        throw new LedgerError('SessionAlreadyRunning', alreadyRunningMessage, {
          error: alreadyRunningMessage,
          agent_id: agentId,
          project_id: projectKey(project.id),
        });
      }
      const expires = new Date(now.getTime() + this.sessionTtlSeconds * 1000).toISOString();
      const id = await tx.insert(
        'INSERT INTO agent_sessions (token_hash, agent, project_id, created_at, last_active_at, expires_at, execution_id) VALUES (?, ?, ?, ?, ?, ?, ?)',
        [tokenHash, agentId, project.id, nowIso, nowIso, expires, executionId],
      );
      if (executionId !== null)
        await tx.run('UPDATE execution_logs SET session_id = ? WHERE id = ?', [id, executionId]);
      await appendPmEvent(tx, {
        ts: nowIso,
        kind: 'agent.session_started',
        entity: 'agent',
        entityId: agentId,
        payload: { session: id, project: projectKey(project.id) },
      });
    });
    return {
      session_token: token,
      expires_in: this.sessionTtlSeconds,
      agent_name: agent.name,
      project_name: project.name,
      system_prompt: agent.promptContent,
      instruction: 'Call get_my_task with your session_token to get your task.',
    };
  }
}
