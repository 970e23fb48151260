/**
 * Bearer tokens of the HTTP server: who may call it, as what. A token is shown once, at creation;
 * the ledger keeps the SHA-256 digest of its secret (a 256-bit random value: a digest is enough,
 * no salt or slow hash is needed against guessing), its role, an expiry and, once revoked, when.
 * `verify` answers null for every refusal alike (unknown, expired, revoked): the HTTP layer says
 * nothing about which part was wrong.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { LedgerEngine } from '../ports/store';
import type { Clock } from '../time';
import type { Caller } from '../caller';
import { currentCaller } from '../caller';
import { LedgerError, validationError } from '../errors';
import { appendEvent } from '../events/eventLog';
import { fromJson } from '../json';

export type TokenRole = 'agent' | 'person' | 'admin';
export const tokenRoles: readonly TokenRole[] = ['agent', 'person', 'admin'];

/** What a new token is for. */
export interface NewToken {
  role: TokenRole;
  /** The person's name, the agent's id for an agent token when left out, a label for an admin. */
  name?: string;
  /** Agent tokens: the agent they act as (required). */
  agent?: string;
  /** Agent tokens: the projects they may act in (`prj-3`, a number or a name); none: every project. */
  projects?: readonly (string | number)[];
  /** Seconds until it expires (default 90 days; at most 400 days). */
  ttlSeconds?: number;
  /** A runner's launch token: the run it was issued for. */
  executionId?: number | null;
}

/** A token as listed: never its secret. */
export interface TokenInfo {
  id: string;
  role: TokenRole;
  name: string;
  agent: string | null;
  projects: string[] | null;
  execution_id: string | null;
  created_at: string;
  created_by: string;
  expires_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
  status: 'active' | 'expired' | 'revoked';
}

interface TokenRow {
  id: number;
  role: TokenRole;
  name: string;
  agent: string | null;
  projects: string | null;
  execution_id: number | null;
  created_at: string;
  created_by: string;
  expires_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
}

export const defaultTokenTtlSeconds = 90 * 24 * 3600;
const maxTokenTtlSeconds = 400 * 24 * 3600;
/** A verified token's use is recorded at most this often (a write per call would double the writes). */
const lastUsedEveryMs = 60_000;
/** Every secret starts with this, so secret scanners and people recognise one. */
export const tokenSecretPrefix = 'alt_';

export const tokenKey = (id: number): string => `token-${id}`;

export function tokenDigest(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** The integer id of `token-3`, `3` or `#3`. */
function tokenIdOf(ref: string | number): number {
  const m = /^(?:token[-_:]?)?#?(\d+)$/i.exec(String(ref).trim());
  const id = m ? Number(m[1]) : NaN;
  if (!Number.isSafeInteger(id) || id <= 0)
    throw validationError(`${JSON.stringify(ref)} is not a token id: use the id \`token list\` shows, like token-3`, {
      token: ref,
    });
  return id;
}

export interface TokenServiceOptions {
  /** Whether an agent by that id is defined (agent tokens must name one). */
  agentExists(agent: string): boolean;
  /** The key (`prj-3`) of a project given by key, number or name; throws NotFound. */
  projectKeyOf(ref: string | number): Promise<string>;
}

export class TokenService {
  /** When each token's use was last written, so a busy token costs one write a minute. */
  private readonly usedAt = new Map<number, number>();

  constructor(
    private readonly engine: LedgerEngine,
    private readonly clock: Clock,
    private readonly options: TokenServiceOptions,
  ) {}

  /** Makes a token; its secret is in the result and nowhere else. */
  async create(input: NewToken): Promise<{ token: TokenInfo; secret: string }> {
    if (!tokenRoles.includes(input.role))
      throw validationError(`role must be one of ${tokenRoles.join(', ')}`, { role: input.role });
    const ttl = input.ttlSeconds ?? defaultTokenTtlSeconds;
    if (!Number.isSafeInteger(ttl) || ttl < 1 || ttl > maxTokenTtlSeconds)
      throw validationError(`a token lives between 1 second and 400 days (got ${ttl} s)`, { ttlSeconds: ttl });
    let agent: string | null = null;
    let projects: string[] | null = null;
    if (input.role === 'agent') {
      agent = input.agent?.trim() || null;
      if (!agent) throw validationError('an agent token names its agent (--agent NAME)', { field: 'agent' });
      if (!this.options.agentExists(agent))
        throw new LedgerError(
          'AgentNotFound',
          `Agent ${agent} not found (list agents with \`agent-ledger agent list\`)`,
          {
            agent_id: agent,
          },
        );
      if (input.projects?.length)
        projects = [...new Set(await Promise.all(input.projects.map((p) => this.options.projectKeyOf(p))))];
    } else if (input.agent !== undefined || input.projects?.length) {
      throw validationError('only an agent token names an agent and projects', { role: input.role });
    }
    const name = (input.name?.trim() || agent) ?? '';
    if (!name) throw validationError(`a ${input.role} token needs a name (--name)`, { field: 'name' });
    const secret = tokenSecretPrefix + randomBytes(32).toString('base64url');
    const now = this.clock.now();
    const createdAt = now.toISOString();
    const expiresAt = new Date(now.getTime() + ttl * 1000).toISOString();
    const createdBy = currentCaller().name;
    const id = await this.engine.write(async (tx) => {
      const inserted = await tx.insert(
        'INSERT INTO access_tokens (digest, role, name, agent, projects, execution_id, created_at, created_by, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
        [
          tokenDigest(secret),
          input.role,
          name,
          agent,
          projects && JSON.stringify(projects),
          input.executionId ?? null,
          createdAt,
          createdBy,
          expiresAt,
        ],
      );
      await appendEvent(tx, {
        ts: createdAt,
        kind: 'token.created',
        entity: 'token',
        entityId: tokenKey(inserted),
        payload: { role: input.role, name, agent, projects, expires_at: expiresAt },
      });
      return inserted;
    });
    return { token: (await this.get(id))!, secret };
  }

  async list(options: { all?: boolean } = {}): Promise<TokenInfo[]> {
    const rows = await this.engine.read((db) => db.all<TokenRow>(`SELECT ${columns} FROM access_tokens ORDER BY id`));
    return rows.map((r) => this.info(r)).filter((t) => options.all || t.status === 'active');
  }

  /** Revokes a token: refused at once by every server on this ledger. */
  async revoke(ref: string | number): Promise<TokenInfo> {
    const id = tokenIdOf(ref);
    const ts = this.clock.now().toISOString();
    await this.engine.write(async (tx) => {
      const row = await tx.get<{ revoked_at: string | null }>('SELECT revoked_at FROM access_tokens WHERE id = ?', [
        id,
      ]);
      if (!row)
        throw new LedgerError(
          'NotFound',
          `Token ${tokenKey(id)} not found (list them with \`agent-ledger token list --all\`)`,
          { token: tokenKey(id) },
        );
      if (row.revoked_at !== null) return;
      await tx.run('UPDATE access_tokens SET revoked_at = ? WHERE id = ?', [ts, id]);
      await appendEvent(tx, { ts, kind: 'token.revoked', entity: 'token', entityId: tokenKey(id) });
    });
    return (await this.get(id))!;
  }

  /** The caller a secret stands for, or null (unknown, expired or revoked: never which). */
  async verify(secret: string): Promise<Caller | null> {
    if (!secret.startsWith(tokenSecretPrefix) || secret.length > 200) return null;
    const row = await this.engine.read((db) =>
      db.get<TokenRow>(`SELECT ${columns} FROM access_tokens WHERE digest = ?`, [tokenDigest(secret)]),
    );
    if (!row || row.revoked_at !== null) return null;
    const now = this.clock.now();
    if (Date.parse(row.expires_at) <= now.getTime()) return null;
    this.noteUse(row.id, now);
    return {
      role: row.role,
      tokenId: Number(row.id),
      name: row.name,
      agent: row.agent,
      projects: row.projects === null ? null : fromJson<string[]>(row.projects, []),
    };
  }

  private async get(id: number): Promise<TokenInfo | undefined> {
    const row = await this.engine.read((db) =>
      db.get<TokenRow>(`SELECT ${columns} FROM access_tokens WHERE id = ?`, [id]),
    );
    return row && this.info(row);
  }

  /** Records that a token was used, once a minute at most, never failing the call that used it. */
  private noteUse(id: number, now: Date): void {
    const last = this.usedAt.get(id) ?? 0;
    if (now.getTime() - last < lastUsedEveryMs) return;
    this.usedAt.set(id, now.getTime());
    void this.engine
      .write((tx) => tx.run('UPDATE access_tokens SET last_used_at = ? WHERE id = ?', [now.toISOString(), id]))
      .catch(() => undefined);
  }

  private info(r: TokenRow): TokenInfo {
    const now = this.clock.now().getTime();
    return {
      id: tokenKey(Number(r.id)),
      role: r.role,
      name: r.name,
      agent: r.agent,
      projects: r.projects === null ? null : fromJson<string[]>(r.projects, []),
      execution_id: r.execution_id === null ? null : `exec-${r.execution_id}`,
      created_at: r.created_at,
      created_by: r.created_by,
      expires_at: r.expires_at,
      revoked_at: r.revoked_at,
      last_used_at: r.last_used_at,
      status: r.revoked_at !== null ? 'revoked' : Date.parse(r.expires_at) <= now ? 'expired' : 'active',
    };
  }
}

const columns =
  'id, role, name, agent, projects, execution_id, created_at, created_by, expires_at, revoked_at, last_used_at';
