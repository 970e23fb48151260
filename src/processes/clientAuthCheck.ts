/**
 * The runner's check, before it launches a client, that the client can reach its model
 * (core/runtime/launch/clientAuth.ts says what each needs): a key in the environment, a login
 * file, else the client's own status command. Answers are kept a minute, so a pair held for a
 * missing key costs no status command at every poll.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ClientKind } from '../core/runtime/launch/clientLaunch';
import { clientAuthOf, codexCustomProvider, hasKey } from '../core/runtime/launch/clientAuth';
import { resolveProgram } from './programPath';

const keepMs = 60_000;
const statusTimeoutMs = 15_000;

export class ClientAuthChecks {
  private readonly answers = new Map<string, { at: number; missing: string | undefined }>();

  constructor(private readonly now: () => number = Date.now) {}

  /** What `client` lacks to reach its model with `env` ("claude needs ANTHROPIC_API_KEY or a login…"), or undefined. */
  async missing(client: ClientKind, env: Readonly<Record<string, string>>): Promise<string | undefined> {
    const auth = clientAuthOf(client, env);
    const key = JSON.stringify([
      client,
      ...[...auth.keyVariables, ...auth.providerSwitches].map((n) => Boolean(env[n])),
      env.HOME,
      env.CODEX_HOME,
      env.CLAUDE_CONFIG_DIR,
      env.GEMINI_CLI_HOME,
      env.PATH,
    ]);
    const kept = this.answers.get(key);
    if (kept && this.now() - kept.at < keepMs) return kept.missing;
    const missing = await check(client, env);
    this.answers.set(key, { at: this.now(), missing });
    return missing;
  }
}

async function check(client: ClientKind, env: Readonly<Record<string, string>>): Promise<string | undefined> {
  const auth = clientAuthOf(client, env);
  if (hasKey(auth, env)) return undefined;
  if (client === 'codex') {
    const home = env.CODEX_HOME || (env.HOME ? path.join(env.HOME, '.codex') : null);
    const config = home ? await fs.promises.readFile(path.join(home, 'config.toml'), 'utf8').catch(() => '') : '';
    const provider = codexCustomProvider(config);
    if (provider) {
      if (provider.envKey === null || (env[provider.envKey] ?? '') !== '') return undefined;
      return `codex needs ${provider.envKey} (the key of its model provider "${provider.name}")`;
    }
  }
  for (const file of auth.loginFiles) if (fs.existsSync(file)) return undefined;
  if (auth.statusCommand && (await succeeds(auth.statusCommand, env))) return undefined;
  return `${client} needs ${auth.missing}`;
}

/** Whether the command exits 0 (a program that cannot be found or runs too long does not). */
function succeeds(command: readonly string[], env: Readonly<Record<string, string>>): Promise<boolean> {
  let program: string;
  try {
    program = resolveProgram(command[0], env.PATH);
  } catch {
    return Promise.resolve(false);
  }
  return new Promise((resolve) => {
    const child = spawn(program, command.slice(1), { env, stdio: 'ignore', detached: true });
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }, statusTimeoutMs);
    child.on('error', () => {
      clearTimeout(timer);
      resolve(false);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve(code === 0);
    });
  });
}
