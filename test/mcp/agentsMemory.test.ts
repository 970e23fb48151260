import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import YAML from 'yaml';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { connect } from '../helpers/mcpClient';
import type { LedgerClient } from '../helpers/mcpClient';
import { tempRepo, writeFiles } from '../helpers/tmp';

interface AgentJson {
  name: string;
  description: string | null;
  client: string;
  model: string | null;
  scope: { read: string[]; write: string[]; exclude: string[] };
  file: string;
  config?: Record<string, unknown>;
  promptContent?: string;
}

interface MemoryJson {
  id: string;
  category: string;
  title: string;
  summary: string | null;
  status: string;
  file: string;
}

const text = async (c: LedgerClient, uri: string) =>
  ((await c.client.readResource({ uri })).contents[0] as { text: string }).text;

/** Resolves with the next resources/updated notification for `uri` (or rejects after `ms`). */
function nextUpdate(c: LedgerClient, uri: string, ms = 5000): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no update for ${uri} within ${ms} ms`)), ms);
    c.client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
      if (n.params.uri === uri) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
}

describe('agents', () => {
  test('coder and reviewer are created on first use, as YAML files in seed 002’s format', async () => {
    const repo = tempRepo();
    const c = await connect(repo);
    try {
      const { agents, problems } = await c.call<{ agents: AgentJson[]; problems: unknown[] }>('agent_list');
      assert.deepEqual(problems, []);
      assert.deepEqual(
        agents.map((a) => [a.name, a.client, a.model, a.file]),
        [
          ['coder', 'claude-code', 'sonnet', '.agent-ledger/agents/coder.yaml'],
          ['reviewer', 'claude-code', 'haiku', '.agent-ledger/agents/reviewer.yaml'],
        ],
      );
      assert.deepEqual(agents[1].scope.write, [], 'the reviewer is read-only');
      const onDisk = YAML.parse(fs.readFileSync(path.join(repo, '.agent-ledger/agents/coder.yaml'), 'utf8')) as Record<
        string,
        unknown
      >;
      assert.equal(onDisk.name, 'coder');
      const full = await c.call<AgentJson>('agent_get', { name: 'coder' });
      assert.match(full.promptContent!, /^# Coder/);
      assert.deepEqual(full.config, {});

      const yaml = await text(c, 'agent://coder');
      assert.deepEqual(YAML.parse(yaml), {
        name: 'coder',
        description: full.description,
        client: 'claude-code',
        model: 'sonnet',
        scope: full.scope,
        permissions: { level: 'commit', commands: [], never: [] },
        promptContent: full.promptContent,
      });
      assert.deepEqual((full as unknown as { permissions: unknown }).permissions, {
        level: 'commit',
        commands: [],
        never: [],
      });
      const { resources } = await c.client.listResources();
      assert.ok(
        resources.some(
          (r) => r.uri === 'agent://reviewer' && r.mimeType === 'application/yaml' && r.name === 'Agent: reviewer',
        ),
      );

      fs.rmSync(path.join(repo, '.agent-ledger/agents/reviewer.yaml'));
      assert.deepEqual(
        (await c.call<{ agents: AgentJson[] }>('agent_list')).agents.map((a) => a.name),
        ['coder'],
        'a deleted default stays deleted',
      );
    } finally {
      await c.close();
    }
  });

  test("a user's own definitions are never overwritten; edits and broken files show at once", async () => {
    const repo = tempRepo();
    writeFiles(repo, {
      '.agent-ledger/agents/coder.md':
        '---\nclient: gemini-cli\nmodel: gemini-2.5-pro\nscope:\n  write: ["lib/**"]\n---\n# My coder\n',
    });
    const c = await connect(repo);
    try {
      const listed = await c.call<{ agents: AgentJson[] }>('agent_list');
      assert.deepEqual(
        listed.agents.map((a) => [a.name, a.client, a.file]),
        [
          ['coder', 'gemini-cli', '.agent-ledger/agents/coder.md'],
          ['reviewer', 'claude-code', '.agent-ledger/agents/reviewer.yaml'],
        ],
        'their coder; the built-in reviewer beside it',
      );
      assert.ok(!fs.existsSync(path.join(repo, '.agent-ledger/agents/coder.yaml')));

      const updated = nextUpdate(c, 'agent://coder');
      await c.client.subscribeResource({ uri: 'agent://coder' });
      writeFiles(repo, { '.agent-ledger/agents/coder.md': '---\nclient: codex\n---\n# Edited by hand\n' });
      const edited = await c.call<AgentJson>('agent_get', { name: 'coder' });
      assert.equal(edited.client, 'codex');
      assert.equal(edited.promptContent, '# Edited by hand\n');
      await updated;

      writeFiles(repo, {
        '.agent-ledger/agents/broken.yaml': 'client: cursor\n',
        '.agent-ledger/agents/twin.yaml': 'name: coder\n',
      });
      const { problems } = await c.call<{ problems: { file: string; message: string }[] }>('agent_list');
      assert.deepEqual(
        problems.map((p) => p.file),
        ['.agent-ledger/agents/broken.yaml', '.agent-ledger/agents/twin.yaml'],
      );
      assert.match(problems[1].message, /already defined in \.agent-ledger\/agents\/coder\.md/);
      const config = await c.fail('agent_get', { name: 'broken' });
      assert.deepEqual([config.code, config.reason], [-32006, 'ConfigError']);
      assert.match(config.message, /"client" must be one of/);
      const missing = await c.fail('agent_get', { name: 'ghost' });
      assert.deepEqual([missing.code, missing.reason], [-32002, 'AgentNotFound']);
      const worker = await c.fail('worker_command', {
        taskId: (await c.call<{ id: number }>('task_create', { title: 't' })).id,
        agent: 'broken',
      });
      assert.equal(worker.code, -32006);
    } finally {
      await c.close();
    }
  });
});

describe('Memory Bank', () => {
  test('memory_add writes a Markdown file with front matter; memory_list and memory_preview read it', async () => {
    const repo = tempRepo();
    const c = await connect(repo);
    try {
      const added = await c.call<MemoryJson>('memory_add', {
        id: 'test-framework',
        category: 'tooling',
        title: 'テストフレームワーク',
        summary: 'Vitest（高速・Vite互換）',
        content: '# Why\nFast.\n',
      });
      assert.deepEqual(added, {
        id: 'test-framework',
        category: 'tooling',
        title: 'テストフレームワーク',
        summary: 'Vitest（高速・Vite互換）',
        status: 'active',
        file: '.agent-ledger/memory/tooling/test-framework.md',
      });
      assert.equal(
        fs.readFileSync(path.join(repo, added.file), 'utf8'),
        '---\ntitle: テストフレームワーク\nsummary: Vitest（高速・Vite互換）\nstatus: active\n---\n\n# Why\nFast.\n',
      );
      await c.call('memory_add', {
        id: 'commit-format',
        category: 'convention',
        title: 'コミット形式',
        summary: 'Conventional Commits',
        status: 'draft',
      });

      const all = await c.call<{ memories: MemoryJson[] }>('memory_list');
      assert.deepEqual(
        all.memories.map((m) => `${m.category}/${m.id}:${m.status}`),
        ['convention/commit-format:draft', 'tooling/test-framework:active'],
      );
      assert.deepEqual(
        (await c.call<{ memories: MemoryJson[] }>('memory_list', { status: 'draft' })).memories.map((m) => m.id),
        ['commit-format'],
      );
      assert.deepEqual(
        (await c.call<{ memories: MemoryJson[] }>('memory_list', { category: 'tooling' })).memories.map((m) => m.id),
        ['test-framework'],
      );

      const preview = await c.call<{ context: string; entries: number; omitted: number }>('memory_preview');
      assert.equal(
        preview.context,
        '## Memory Bank Summary\n- tooling: Vitest（高速・Vite互換）\n\n## Project Context (Memory Bank)\n- .agent-ledger/memory/tooling/test-framework.md - テストフレームワーク\n\nRead these files in .agent-ledger/memory/ for details.',
      );
      assert.equal(await text(c, 'project://memory'), preview.context);
      const { resources } = await c.client.listResources();
      assert.ok(resources.some((r) => r.uri === 'project://memory' && r.mimeType === 'text/markdown'));
      const worker = await c.call<{ argv: string[] }>('worker_command', {
        taskId: (await c.call<{ id: number }>('task_create', { title: 'uses memory' })).id,
      });
      assert.ok(worker.argv.at(-1)!.includes(preview.context), 'workers get the Memory Bank context');
    } finally {
      await c.close();
    }
  });

  test('files edited or added by hand are seen at once, and subscribers are told', async () => {
    const repo = tempRepo();
    const c = await connect(repo);
    try {
      await c.call('memory_add', { id: 'db', category: 'architecture', title: 'Database', summary: 'SQLite locally' });
      await c.client.subscribeResource({ uri: 'project://memory' });
      const notified = nextUpdate(c, 'project://memory');
      writeFiles(repo, {
        '.agent-ledger/memory/architecture/db.md':
          '---\ntitle: Database\nsummary: PostgreSQL everywhere\nstatus: active\n---\nChanged our mind.\n',
        '.agent-ledger/memory/rule/test-required.md': '# テスト必須\nバグ修正時は必ず回帰テストを追加\n',
        '.agent-ledger/memory/rule/broken.md': '---\nstatus: final\n---\n',
        '.agent-ledger/memory/rule/bad name.md': 'x\n',
      });
      await notified;
      const { memories, problems } = await c.call<{
        memories: MemoryJson[];
        problems: { file: string; message: string }[];
      }>('memory_list');
      assert.deepEqual(
        memories.map((m) => [m.id, m.title, m.summary, m.status]),
        [
          ['db', 'Database', 'PostgreSQL everywhere', 'active'],
          ['test-required', 'テスト必須', null, 'active'],
        ],
      );
      assert.deepEqual(problems.map((p) => p.file).sort(), [
        '.agent-ledger/memory/rule/bad name.md',
        '.agent-ledger/memory/rule/broken.md',
      ]);
      assert.match(await text(c, 'project://memory'), /- architecture: PostgreSQL everywhere\n- rule: テスト必須/);

      writeFiles(repo, { '.agent-ledger/memory/architecture/db.md': '---\ntitle: Database\nstatus: archived\n---\n' });
      assert.equal(
        (await c.call<{ memories: MemoryJson[] }>('memory_list', { status: 'archived' })).memories[0].id,
        'db',
      );
      assert.doesNotMatch(
        (await c.call<{ context: string }>('memory_preview')).context,
        /Database/,
        'archived entries are not given to agents',
      );
    } finally {
      await c.close();
    }
  });

  test('refusals: an existing entry is never overwritten; ids and categories stay plain names', async () => {
    const repo = tempRepo();
    const c = await connect(repo);
    try {
      await c.call('memory_add', {
        id: 'linter',
        category: 'tooling',
        title: 'Linter',
        summary: 'ESLint + Biome',
        status: 'active',
      });
      const exists = await c.fail('memory_add', { id: 'linter', category: 'tooling', title: 'Other' });
      assert.deepEqual([exists.code, exists.reason], [-32004, 'InvalidStatus']);
      assert.match(
        fs.readFileSync(path.join(repo, '.agent-ledger/memory/tooling/linter.md'), 'utf8'),
        /ESLint \+ Biome/,
      );
      for (const [id, category] of [
        ['../escape', 'tooling'],
        ['x', '../../etc'],
        ['a/b', 'tooling'],
        ['x', '.hidden'],
        ['..', 'tooling'],
      ]) {
        const refused = await c.fail('memory_add', { id, category, title: 't' });
        assert.equal(refused.code, -32007, `${category}/${id}`);
      }
      assert.ok(!fs.existsSync(path.join(repo, '.agent-ledger/escape.md')));
      assert.match(
        (await c.fail('memory_add', { id: 'x', category: 'y', title: 't', status: 'final' })).message,
        /status: expected one of "draft" \| "active" \| "archived"/,
      );
      const small = await c.call<{ context: string; entries: number; omitted: number }>('memory_preview', {
        maxChars: 200,
      });
      assert.ok(small.context.length <= 200);
    } finally {
      await c.close();
    }
  });
});
