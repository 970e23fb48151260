import * as os from 'node:os';

/**
 * The machine and OS user a process writes from. Several machines may share one ledger (a team on
 * PostgreSQL) while Git truth stays local: tasks, sessions, decisions and events record where they
 * came from, and a rewind says on which machine a snapshot lives.
 */
export interface MachineIdentity {
  /** A name people recognise: AGENT_LEDGER_MACHINE, else the host name. */
  id: string;
  /** AGENT_LEDGER_OS_USER, else the account running the process. */
  user: string;
}

let cached: { key: string; machine: MachineIdentity } | undefined;

/** The machine and user this process writes from (read again only when the environment overrides change). */
export function thisMachine(): MachineIdentity {
  const key = `${process.env.AGENT_LEDGER_MACHINE ?? ''}\0${process.env.AGENT_LEDGER_OS_USER ?? ''}`;
  if (cached?.key !== key) cached = { key, machine: localMachine() };
  return cached.machine;
}

/** This process's machine and user (environment overrides first: containers and tests simulate machines with them). */
export function localMachine(env: NodeJS.ProcessEnv = process.env): MachineIdentity {
  return {
    id: env.AGENT_LEDGER_MACHINE?.trim() || os.hostname() || 'unknown',
    user: env.AGENT_LEDGER_OS_USER?.trim() || osUser(env),
  };
}

function osUser(env: NodeJS.ProcessEnv): string {
  try {
    return os.userInfo().username;
  } catch {
    return env.USER || env.USERNAME || 'unknown';
  }
}

/** The process a session started here lives in: its pid and start token (null where none can be read). */
export interface OwnerProcess {
  pid: number;
  startToken: string | null;
}

let owner: OwnerProcess | null = null;

/**
 * Says which process the sessions this process starts live in. The composition root sets it:
 * a long-lived process (an MCP server, the extension, the runner) is its own owner; the CLI names
 * the shell that ran it, where `eval "$(agent-ledger worker command 5)"` runs the agent. Unset:
 * sessions record no process, and their liveness is unknown.
 */
export function setOwnerProcess(p: OwnerProcess | null): void {
  owner = p;
}

export function ownerProcess(): OwnerProcess | null {
  return owner;
}
