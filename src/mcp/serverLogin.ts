/**
 * The login of an agent instance the runner launched. The runner gives this server (through the
 * agent client's configuration, by variable *name*) a single-use launch ticket; `authenticate`
 * without a passkey redeems it, and the server keeps the session token itself. So neither the
 * passkey nor the token ever appears in the agent's prompt, transcript or tool calls: the agent
 * passes no `session_token` (or the placeholder `authenticate` returned) and this server fills
 * in the one it holds. A server started by a person has no ticket and behaves as the contract says.
 */
import { LedgerError } from '../core/errors';

/** What `authenticate` returns as `session_token` when this server holds the real one. */
export const heldTokenPlaceholder = 'held-by-server';

const ticketVariable = 'AGENT_LEDGER_LAUNCH_TICKET';

export class ServerLogin {
  private token: string | undefined;
  private agentLoggedIn = false;

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

  hold(token: string): void {
    this.token = token;
    this.agentLoggedIn = true;
  }

  /** An agent logged in through this server (its ticket or a passkey): its credentials are here. */
  noteAgentLogin(): void {
    this.agentLoggedIn = true;
  }

  /**
   * This server acts for an agent: the runner launched it for one (its ticket), or an agent logged
   * in through it. A person's decision is never taken on such a server.
   */
  get hasAgentCredentials(): boolean {
    return this.agentLoggedIn || this.agentId !== undefined || this.ticket !== undefined;
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
