/**
 * One entry point for the runner: the launch of a client, and the usage its output reports.
 */
import type { ClientKind, ClientLaunchInput, LaunchPlan, OutputFormat } from './clientLaunch';
import { claudeLaunch, parseClaudeOutput } from './claudeCode';
import { codexLaunch, parseCodexOutput } from './codexCli';
import type { CommandTemplate } from './commandTemplate';
import { templateLaunch } from './commandTemplate';
import { geminiLaunch, parseGeminiOutput } from './geminiCli';
import type { RunUsage } from './runUsage';

export const clientKinds: readonly ClientKind[] = ['claude', 'codex', 'gemini'];

/** The npm package of each client, for a runner that cannot find one to say how to install it. */
export const clientPackages: Readonly<Record<ClientKind, string>> = {
  claude: '@anthropic-ai/claude-code',
  codex: '@openai/codex',
  gemini: '@google/gemini-cli',
};

/** How to launch `client` (a built-in adapter) or a command template. */
export function buildLaunchPlan(client: ClientKind | CommandTemplate, input: ClientLaunchInput): LaunchPlan {
  if (typeof client !== 'string') return templateLaunch(client, input);
  switch (client) {
    case 'claude':
      return claudeLaunch(input);
    case 'codex':
      return codexLaunch(input);
    case 'gemini':
      return geminiLaunch(input);
  }
}

/** Tokens and cost from a run's stdout; null when the output says nothing (plain text, a crash). */
export function parseRunOutput(format: OutputFormat, stdout: string): RunUsage | null {
  switch (format) {
    case 'claude-json':
      return parseClaudeOutput(stdout);
    case 'codex-jsonl':
      return parseCodexOutput(stdout);
    case 'gemini-json':
      return parseGeminiOutput(stdout);
    case 'text':
      return null;
  }
}
