import { quote } from 'shell-quote';
import type { AgentClient } from '../agents/agentModel';

export interface LaunchOptions {
  model: string | null;
  /** Add the client's auto-approval flag. */
  auto: boolean;
  prompt: string;
}

/** The executable each client is started with. */
export const clientExecutables: Record<AgentClient, string> = {
  'claude-code': 'claude',
  codex: 'codex',
  'gemini-cli': 'gemini',
};

/**
 * The argument vector that starts a worker: spawn it without a shell, or quote it with
 * {@link shellCommand}. Values are bound to their option (`--model=<m>`) so a value starting
 * with `-` cannot become another option; the prompt always starts with "# Worker", never `-`.
 */
export function clientArgv(client: AgentClient, o: LaunchOptions): string[] {
  const model = o.model ? [`--model=${o.model}`] : [];
  switch (client) {
    case 'claude-code':
      return ['claude', '--print', ...model, ...(o.auto ? ['--dangerously-skip-permissions'] : []), o.prompt];
    case 'codex':
      return ['codex', 'exec', ...model, ...(o.auto ? ['--full-auto'] : []), o.prompt];
    case 'gemini-cli':
      return ['gemini', ...model, ...(o.auto ? ['--yolo'] : []), `--prompt=${o.prompt}`];
  }
}

/**
 * `cd <cwd> && <argv>` for a POSIX shell, every word quoted by shell-quote: whatever a task
 * title or agent name contains (`$(…)`, backquotes, quotes, newlines) stays one literal argument.
 */
export function shellCommand(cwd: string, argv: readonly string[]): string {
  return `cd ${quote([cwd])} && ${quote([...argv])}`;
}
