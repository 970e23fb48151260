/**
 * Which programs a child runtime may run. A child is an agent process the ledger supervises, not a
 * shell for whoever holds an MCP connection: `child_create` runs only
 * - a program an agent definition declares (its client — `claude`, `codex`, `gemini` — or the first
 *   word of its `launch.command`), when that definition is committed in the repository as it is
 *   now (an agent that can edit files but not commit cannot allow itself a program), or
 * - a program a person allowed with `--child-program` (the server's command line, in a client
 *   configuration the agent does not write: a user-scope one).
 * The program is compared as written (`node` and `/usr/bin/node` are two programs).
 * `child_spawn_codex` runs the ledger's own launch of `codex exec` in its sandbox and is not
 * subject to the list.
 */
import type { AgentDefinition } from '../../agents/agentModel';
import { aiTypeOf } from '../pm/aiType';
import { childError } from './childErrors';

/** A program an agent definition declares. */
export interface DeclaredProgram {
  program: string;
  agent: string;
  /** Workspace-relative file of the definition. */
  file: string;
}

/** Where the allowed programs come from (wired in app/services.ts). */
export interface ChildProgramSources {
  /** Programs a person allowed (`--child-program`), as given. */
  readonly allowed: readonly string[];
  /** Programs of the agent definitions whose file is committed as it is now (read at each call: files change). */
  declared(): Promise<DeclaredProgram[]>;
}

/** The program an agent definition runs: its `launch.command`'s, else its client's. */
export function agentProgram(agent: AgentDefinition): string {
  return agent.launch?.command?.[0] ?? aiTypeOf(agent.client);
}

/** Throws `E-CHILD-PROGRAM` (ConfigError) unless `program` is allowed; says what is and how to allow more. */
export async function checkChildProgram(program: string, sources: ChildProgramSources): Promise<void> {
  if (sources.allowed.includes(program)) return;
  const declared = await sources.declared();
  if (declared.some((d) => d.program === program)) return;
  const allowed = [...new Set([...sources.allowed, ...declared.map((d) => d.program)])];
  throw childError(
    'E-CHILD-PROGRAM',
    `${program} is not a program this workspace allows for child runtimes (${allowed.length ? `allowed: ${allowed.join(', ')}` : 'none is allowed'}). A person allows one with \`--child-program ${program}\` on the server's command line, or declares it in an agent definition (its client or launch.command) and commits it.`,
    { program, allowed },
  );
}
