/**
 * The login of an agent instance the runner launched. The runner writes a single-use, short-lived
 * launch ticket to a file of the run (`.agent-ledger/runs/<exec>.d/ticket`, owner-only) and tells
 * this server where it is (through the agent client's configuration: a file name, never the
 * ticket). The server reads the file and deletes it as it starts, so the ticket sits in no
 * environment — not the client's, not this server's, not what either starts. `authenticate`
 * without a passkey redeems it, and the server keeps the session token itself. So neither the
 * passkey, the ticket nor the token ever appears in the agent's prompt, transcript or tool calls:
 * the agent passes no `session_token` (or the placeholder `authenticate` returned) and this
 * server fills in the one it holds. A server started by a person has no ticket and behaves as the
 * contract says.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { LedgerError } from '../core/errors';
import { ledgerFolder, localFolders } from '../core/ledgerFiles';
import { connectionIdentity } from '../core/caller';

/** What `authenticate` returns as `session_token` when this server holds the real one. */
export const heldTokenPlaceholder = 'held-by-server';

const ticketVariable = 'AGENT_LEDGER_LAUNCH_TICKET';
const ticketFileVariable = 'AGENT_LEDGER_LAUNCH_TICKET_FILE';

export class ServerLogin {
  private token: string | undefined;
  /** The agent logged in on this server (a ticket or a passkey), once one is. */
  private agent: string | undefined;

  private constructor(
    private ticket: string | undefined,
    /** The agent the runner launched this server for (not secret). */
    readonly agentId: string | undefined,
    /** Over HTTP, the session token every replica derives from the launch token (nothing held in memory). */
    private readonly derived?: string,
  ) {
    this.token = derived;
    // A launch token is its agent's: its calls count as the agent's from the first one.
    if (derived !== undefined) this.agent = agentId;
  }

  /**
   * The login of an agent the runner launched against an HTTP server: its short-lived agent token
   * is also its launch ticket, and the session it opens has a token derived from it, so any
   * server on the ledger (several replicas behind one URL) finds the session without holding it.
   */
  static forLaunchToken(bearer: string, agentId: string): ServerLogin {
    return new ServerLogin(bearer, agentId, launchSessionToken(bearer));
  }

  /**
   * Takes the ticket once, as the server starts: from the run's ticket file (read, then deleted),
   * or from the variable an older runner set; both variables are removed from this process's
   * environment, so nothing this server starts inherits them. `workspace`: the ticket file must be
   * a run's, in this workspace's `.agent-ledger/runs/` (or a ledger's folder in it) — a name pointing elsewhere (a client
   * configuration committed by someone else) is neither read nor deleted.
   */
  static fromEnvironment(
    workspace: string,
    env: NodeJS.ProcessEnv = process.env,
    log?: (line: string) => void,
  ): ServerLogin {
    const file = env[ticketFileVariable]?.trim() || undefined;
    let ticket = env[ticketVariable]?.trim() || undefined;
    delete env[ticketVariable];
    delete env[ticketFileVariable];
    if (file !== undefined) {
      const taken = takeTicketFile(workspace, file);
      if (taken === undefined) log?.(`${ticketFileVariable} does not name a run's ticket of this workspace: ignored`);
      ticket = taken ?? ticket;
    }
    return new ServerLogin(ticket, env.AGENT_LEDGER_AGENT_ID?.trim() || undefined);
  }

  static none(): ServerLogin {
    return new ServerLogin(undefined, undefined);
  }

  /** The ticket, once, for the agent it was issued for. */
  takeTicket(agentId: string): string | undefined {
    if (this.ticket === undefined || (this.agentId !== undefined && this.agentId !== agentId)) return undefined;
    const ticket = this.ticket;
    this.ticket = undefined;
    return ticket;
  }

  /** The session token `authenticate` should open with the ticket (derived over HTTP; random on stdio). */
  sessionTokenToOpen(): string | undefined {
    return this.derived;
  }

  /** Keeps the session a ticket opened for `agentId`. */
  hold(token: string, agentId: string): void {
    this.token = token;
    this.agent = agentId;
  }

  /** An agent logged in with its passkey through this server: its calls count as the agent's. */
  loggedIn(agentId: string): void {
    this.agent = agentId;
  }

  /** Who this server's calls write as: the agent logged in, else this connection (the write quota's caller). */
  identity(): string {
    return this.agent !== undefined ? `agent:${this.agent}` : connectionIdentity();
  }

  /**
   * This server acts for an agent: the runner launched it for one (its ticket), or an agent logged
   * in through it. A person's decision is never taken on such a server.
   */
  get hasAgentCredentials(): boolean {
    return this.agent !== undefined || this.agentId !== undefined || this.ticket !== undefined;
  }

  /** The token a call gave, or the one held here; Unauthorized when there is none. */
  tokenFor(given: string | undefined): string {
    if (given !== undefined && given !== heldTokenPlaceholder) return given;
    if (this.token !== undefined) return this.token;
    throw new LedgerError(
      'Unauthorized',
      'session_token is required: call authenticate first and pass the session_token it returned',
      { error: 'session_token is required' },
    );
  }
}

/** The ticket in a run's ticket file, read once and deleted; undefined unless it is `<workspace>/.agent-ledger/runs/<run>.d/ticket`, a plain file. */
function takeTicketFile(workspace: string, file: string): string | undefined {
  try {
    const runs = fs.realpathSync(path.join(workspace, ledgerFolder, localFolders.runs));
    const folder = fs.realpathSync(path.dirname(path.resolve(file)));
    // A run's folder sits in runs/, or in runs/<db|pg>-<hash>/ for a ledger other than the workspace's own.
    const parent = path.dirname(folder);
    const inRuns =
      parent === runs || (path.dirname(parent) === runs && /^(db|pg)-[0-9a-f]{8}$/.test(path.basename(parent)));
    if (path.basename(file) !== 'ticket' || !inRuns || !folder.endsWith('.d')) return undefined;
    const at = path.join(folder, 'ticket');
    if (!fs.lstatSync(at).isFile()) return undefined;
    const fd = fs.openSync(at, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0));
    let ticket: string;
    try {
      ticket = fs.readFileSync(fd, 'utf8').trim();
    } finally {
      fs.closeSync(fd);
    }
    fs.rmSync(at, { force: true });
    return ticket || undefined;
  } catch {
    return undefined;
  }
}

/** The session token of a call: given, or held by this server. */
export function sessionTokenOf(given: string | undefined, login: ServerLogin | undefined): string {
  return (login ?? ServerLogin.none()).tokenFor(given);
}

/** The session token of a launch token's session: the same on every server that sees the token. */
export function launchSessionToken(bearer: string): string {
  return createHash('sha256').update(`agent-ledger launch session\0${bearer}`).digest('base64url');
}
