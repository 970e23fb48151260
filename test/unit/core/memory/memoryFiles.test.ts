import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatMemoryFile, parseMemoryFile } from '../../../../src/core/memory/memoryFiles';
import { memoryContext } from '../../../../src/core/memory/memoryPreview';
import type { MemoryEntry } from '../../../../src/core/memory/memoryModel';

const entry = (
  category: string,
  id: string,
  title: string,
  summary: string | null,
  status: MemoryEntry['status'] = 'active',
): MemoryEntry => ({
  id,
  category,
  title,
  summary,
  status,
  content: '',
  file: `.agent-ledger/memory/${category}/${id}.md`,
});

test('an entry file: front matter, then the body; written and read back unchanged', () => {
  const text = formatMemoryFile({
    title: 'テストフレームワーク',
    summary: 'Vitest（高速・Vite互換）',
    status: 'active',
    content: '# Why\nFast.\n',
  });
  assert.equal(
    text,
    '---\ntitle: テストフレームワーク\nsummary: Vitest（高速・Vite互換）\nstatus: active\n---\n\n# Why\nFast.\n',
  );
  const parsed = parseMemoryFile(text, 'tooling', 'test-framework', '.agent-ledger/memory/tooling/test-framework.md');
  assert.deepEqual(parsed, {
    ...entry('tooling', 'test-framework', 'テストフレームワーク', 'Vitest（高速・Vite互換）'),
    content: '# Why\nFast.\n',
  });
});

test('hand-written files: no front matter means active, titled by the first heading', () => {
  const e = parseMemoryFile('# Use pnpm\nAlways.\n', 'tooling', 'pnpm', 'x');
  assert.equal(e.title, 'Use pnpm');
  assert.equal(e.status, 'active');
  assert.equal(e.summary, null);
  assert.throws(
    () => parseMemoryFile('---\nstatus: final\n---\n', 'c', 'i', 'x'),
    /"status" must be one of draft, active, archived/,
  );
  assert.throws(() => parseMemoryFile('---\ntitle: [x\n---\n', 'c', 'i', 'x'));
  assert.throws(() => parseMemoryFile('---\ntitle: x\n', 'c', 'i', 'x'), /no closing/);
});

test('the context has seed 002’s shape and holds active entries only', () => {
  const preview = memoryContext(
    [
      entry('architecture', 'database-selection', 'データベース選定', 'DBはPostgreSQL（本番）/ SQLite（ローカル）'),
      entry('rule', 'test-required', 'テスト必須', 'バグ修正時は必ず回帰テストを追加'),
      entry('tooling', 'old', 'Old', 'gone', 'archived'),
    ],
    4000,
  );
  assert.equal(
    preview.context,
    [
      '## Memory Bank Summary',
      '- architecture: DBはPostgreSQL（本番）/ SQLite（ローカル）',
      '- rule: バグ修正時は必ず回帰テストを追加',
      '',
      '## Project Context (Memory Bank)',
      '- .agent-ledger/memory/architecture/database-selection.md - データベース選定',
      '- .agent-ledger/memory/rule/test-required.md - テスト必須',
      '',
      'Read these files in .agent-ledger/memory/ for details.',
    ].join('\n'),
  );
  assert.deepEqual([preview.entries, preview.omitted], [2, 0]);
  assert.deepEqual(memoryContext([entry('a', 'b', 'c', null, 'draft')], 4000), { context: '', entries: 0, omitted: 0 });
});

test('the size budget keeps whole entries and says how many were left out', () => {
  const many = Array.from({ length: 200 }, (_, i) =>
    entry('rule', `r${String(i).padStart(3, '0')}`, `Rule ${i}`, `Summary of rule ${i} `.repeat(3)),
  );
  const preview = memoryContext(many, 2000);
  assert.ok(preview.context.length <= 2000, `length ${preview.context.length}`);
  assert.equal(preview.entries + preview.omitted, 200);
  assert.ok(preview.entries > 0 && preview.omitted > 0);
  assert.match(preview.context, new RegExp(`… ${preview.omitted} more active entries not shown`));
});
