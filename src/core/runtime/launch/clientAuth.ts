/**
 * What each client needs to reach its model: an API key variable, or a login it keeps itself. A
 * runner checks before launching (client auth before any worktree or session is made) and says
 * what is missing, because a client without either does not always say so: Codex with its
 * built-in provider retries the network for over 30 s; Claude Code and Gemini CLI exit at once
 * with a message only their log holds. Checked with the pinned versions (docs/agent-clients.md).
 */
import * as path from 'node:path';
import type { ClientKind } from './clientLaunch';

export interface ClientAuth {
  /** Any one of these variables, non-empty, is enough. */
  keyVariables: readonly string[];
  /** Variables that switch the client to another provider with its own credentials (Bedrock, Vertex AI…): enough. */
  providerSwitches: readonly string[];
  /** Files where the client keeps a login: any one that exists is enough. */
  loginFiles: readonly string[];
  /**
   * The client's own "am I logged in" command (exit 0: yes), for a login kept where no file shows it
   * (the macOS keychain); slow (Claude Code's takes 1.4–2.1 s), so asked last.
   */
  statusCommand?: readonly string[];
  /** What the person is told is missing. */
  missing: string;
}

function homeOf(env: Readonly<Record<string, string>>): string | null {
  return env.HOME || null;
}

/**
 * Codex's own model provider when `config.toml` chooses one other than OpenAI's, and the variable
 * holding its key (`env_key`; null when it takes none, as a local server does). Codex itself says
 * at once when that variable is missing; only its built-in provider retries without a word.
 */
export function codexCustomProvider(configToml: string): { name: string; envKey: string | null } | null {
  // The top-level key only: everything before the first table header.
  const top = configToml.split(/^\s*\[/m)[0] ?? '';
  const name = /^\s*model_provider\s*=\s*"([^"]*)"/m.exec(top)?.[1];
  if (!name || name === 'openai') return null;
  const tables = configToml.split(/^(?=\s*\[)/m);
  const table = tables.find((t) =>
    new RegExp(`^\\s*\\[model_providers\\.(?:${escape(name)}|"${escape(name)}")\\]`).test(t),
  );
  const envKey = table ? (/^\s*env_key\s*=\s*"([^"]*)"/m.exec(table)?.[1] ?? null) : null;
  return { name, envKey };
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** What `client` needs, for a run with environment `env`. */
export function clientAuthOf(client: ClientKind, env: Readonly<Record<string, string>>): ClientAuth {
  const home = homeOf(env);
  switch (client) {
    case 'claude': {
      const config = env.CLAUDE_CONFIG_DIR || (home ? path.join(home, '.claude') : null);
      return {
        keyVariables: ['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN', 'CLAUDE_CODE_OAUTH_TOKEN'],
        providerSwitches: ['CLAUDE_CODE_USE_BEDROCK', 'CLAUDE_CODE_USE_VERTEX', 'CLAUDE_CODE_USE_FOUNDRY'],
        loginFiles: config ? [path.join(config, '.credentials.json')] : [],
        statusCommand: ['claude', 'auth', 'status'],
        missing: 'ANTHROPIC_API_KEY or a login (claude auth login)',
      };
    }
    case 'codex': {
      const codexHome = env.CODEX_HOME || (home ? path.join(home, '.codex') : null);
      return {
        keyVariables: ['OPENAI_API_KEY', 'CODEX_API_KEY'],
        providerSwitches: [],
        loginFiles: codexHome ? [path.join(codexHome, 'auth.json')] : [],
        statusCommand: ['codex', 'login', 'status'],
        missing: 'OPENAI_API_KEY (or CODEX_API_KEY) or a login (codex login)',
      };
    }
    case 'gemini': {
      const geminiHome = env.GEMINI_CLI_HOME || home;
      return {
        keyVariables: ['GEMINI_API_KEY'],
        providerSwitches: ['GOOGLE_GENAI_USE_VERTEXAI', 'GOOGLE_GENAI_USE_GCA', 'GEMINI_CLI_USE_COMPUTE_ADC'],
        loginFiles: geminiHome ? [path.join(geminiHome, '.gemini', 'oauth_creds.json')] : [],
        missing: 'GEMINI_API_KEY or a Google login (run gemini once and sign in)',
      };
    }
  }
}

/** Whether the environment alone settles it: a key or a provider switch is set. */
export function hasKey(auth: ClientAuth, env: Readonly<Record<string, string>>): boolean {
  return (
    auth.keyVariables.some((name) => (env[name] ?? '') !== '') ||
    auth.providerSwitches.some((name) => ['1', 'true'].includes((env[name] ?? '').toLowerCase()))
  );
}
