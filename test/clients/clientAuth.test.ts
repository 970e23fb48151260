// The runner's check that a client can reach its model, against the real clients: a key in the
// environment, a login file, or the client's own status command (Claude Code's `auth status`,
// Codex's `login status`), and what it says when none is there.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ClientAuthChecks } from '../../src/processes/clientAuthCheck';
import type { AgentCliName } from '../helpers/agentClis';
import { agentCliHome, installedCli, skipUnlessInstalled } from '../helpers/agentClis';

const keys: Record<AgentCliName, string[]> = {
  claude: ['ANTHROPIC_API_KEY'],
  codex: ['SCRIPTED_MODEL_API_KEY'],
  gemini: ['GEMINI_API_KEY'],
};

function without(env: Record<string, string>, names: readonly string[]): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter(([k]) => !names.includes(k)));
}

for (const name of ['claude', 'codex', 'gemini'] as const) {
  describe(`${name}: can it reach its model?`, { skip: skipUnlessInstalled(name) }, () => {
    test('with its key: yes; without key or login: no, naming what is missing', async () => {
      const { env } = agentCliHome(name, 'http://127.0.0.1:9');
      const checks = new ClientAuthChecks();
      assert.equal(await checks.missing(name, env), undefined);
      const bare = without(env, keys[name]);
      const missing = await new ClientAuthChecks().missing(name, bare);
      const expected = {
        claude: /^claude needs ANTHROPIC_API_KEY or a login \(claude auth login\)$/,
        // The tests' home chooses a custom provider: its own key variable is what is missing.
        codex: /^codex needs SCRIPTED_MODEL_API_KEY \(the key of its model provider "scripted"\)$/,
        gemini: /^gemini needs GEMINI_API_KEY or a Google login/,
      }[name];
      assert.match(missing ?? '(nothing missing)', expected);
    });

    test('a login the client keeps itself is enough', async () => {
      const { env, home } = agentCliHome(name, 'http://127.0.0.1:9');
      const bare = without(env, keys[name]);
      if (name === 'codex') {
        // The built-in provider, logged in the way `codex login --with-api-key` does it.
        fs.rmSync(path.join(home, '.codex', 'config.toml'));
        assert.match((await new ClientAuthChecks().missing('codex', bare)) ?? '', /^codex needs OPENAI_API_KEY/);
        execFileSync(installedCli('codex')!.bin, ['login', '--with-api-key'], { env: bare, input: 'sk-test\n' });
        assert.ok(fs.existsSync(path.join(home, '.codex', 'auth.json')), 'codex wrote its login');
      } else if (name === 'gemini') {
        fs.writeFileSync(path.join(home, '.gemini', 'oauth_creds.json'), '{}', { mode: 0o600 });
      } else {
        fs.writeFileSync(path.join(env.CLAUDE_CONFIG_DIR, '.credentials.json'), '{}', { mode: 0o600 });
      }
      assert.equal(await new ClientAuthChecks().missing(name, bare), undefined);
    });
  });
}
