/**
 * The login of an agent instance the runner launched. The runner gives this server (through the
 * agent client's configuration, by variable *name*) a single-use launch ticket; `authenticate`
 * without a passkey redeems it, and the server keeps the session token itself. So neither the
 * passkey nor the token ever appears in the agent's prompt, transcript or tool calls: the agent
 * passes no `session_token` (or the placeholder `authenticate` returned) and this server fills
 * in the one it holds. A server started by a person has no ticket and behaves as the contract says.
 */
import { LedgerError } from '../core/errors';
import { connectionIdentity } from '../core/limits/callIdentity';

/** What `authenticate` returns as `session_token` when this server holds the real one. */
export const heldTokenPlaceholder = 'held-by-server';

const ticketVariable = 'AGENT_LEDGER_LAUNCH_TICKET';

export class ServerLogin {
  private token: string | undefined;
  /** The agent logged in on this server (a ticket or a passkey), once one is. */
  private agent: string | undefined;

  private constructor(
    private ticket: string | undefined,
    /** The agent the runner launched this server for (not secret). */
    readonly agentId: string | undefined,
  ) {}

  /** Reads the ticket once and removes it from this process's environment (nothing this server starts inherits it). */
  static fromEnvironment(env: NodeJS.ProcessEnv = process.env): ServerLogin {
    const ticket = env[ticketVariable]?.trim() || undefined;
    delete env[ticketVariable];
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

/** The session token of a call: given, or held by this server. */
export function sessionTokenOf(given: string | undefined, login: ServerLogin | undefined): string {
  return (login ?? ServerLogin.none()).tokenFor(given);
}
