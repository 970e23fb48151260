/**
 * The login of an agent instance the runner launched. The runner gives this server (through the
 * agent client's configuration, by variable *name*) a single-use launch ticket; `authenticate`
 * without a passkey redeems it, and the server keeps the session token itself. So neither the
 * passkey nor the token ever appears in the agent's prompt, transcript or tool calls: the agent
 * passes no `session_token` (or the placeholder `authenticate` returned) and this server fills
 * in the one it holds. A server started by a person has no ticket and behaves as the contract says.
 */
import { createHash } from 'node:crypto';
import { LedgerError } from '../core/errors';

/** What `authenticate` returns as `session_token` when this server holds the real one. */
export const heldTokenPlaceholder = 'held-by-server';

const ticketVariable = 'AGENT_LEDGER_LAUNCH_TICKET';

export class ServerLogin {
  private token: string | undefined;

  private constructor(
    private ticket: string | undefined,
    /** The agent the runner launched this server for (not secret). */
    readonly agentId: string | undefined,
    /** Over HTTP, the session token every replica derives from the launch token (nothing held in memory). */
    private readonly derived?: string,
  ) {
    this.token = derived;
  }

  /**
   * The login of an agent the runner launched against an HTTP server: its short-lived agent token
   * is also its launch ticket, and the session it opens has a token derived from it, so any
   * server on the ledger (several replicas behind one URL) finds the session without holding it.
   */
  static forLaunchToken(bearer: string, agentId: string): ServerLogin {
    return new ServerLogin(bearer, agentId, launchSessionToken(bearer));
  }

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

  /** The session token `authenticate` should open with the ticket (derived over HTTP; random on stdio). */
  sessionTokenToOpen(): string | undefined {
    return this.derived;
  }

  hold(token: string): void {
    this.token = token;
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

/** The session token of a launch token's session: the same on every server that sees the token. */
export function launchSessionToken(bearer: string): string {
  return createHash('sha256').update(`agent-ledger launch session\0${bearer}`).digest('base64url');
}
