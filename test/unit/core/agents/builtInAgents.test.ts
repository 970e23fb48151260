// The built-in coder and reviewer beside a person's own agent files, on a real folder: the record
// of what the ledger wrote (with hashes) tells a deleted built-in, an edited one and a person's
// new file apart.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createServices } from '../../../../src/app/services';
import type { Services } from '../../../../src/app/services';
import { defaultAgents } from '../../../../src/core/agents/agentFiles';
import { AgentRegistry } from '../../../../src/core/agents/agentRegistry';
import { systemClock } from '../../../../src/core/time';
import { builtInText, writtenRecordFile } from '../../../../src/core/agents/builtInAgents';
import { tempDir } from '../../../helpers/tmp';

const agentsDir = (ws: string) => path.join(ws, '.agent-ledger', 'agents');
const file = (ws: string, name: string) => path.join(agentsDir(ws), name);
const record = (ws: string) =>
  JSON.parse(fs.readFileSync(file(ws, writtenRecordFile), 'utf8')) as { files: Record<string, { sha256: string }> };
const names = async (services: Services) => (await services.agents.list()).agents.map((a) => a.name).sort();
const coder = defaultAgents.find((a) => a.name === 'coder')!;
const reviewer = defaultAgents.find((a) => a.name === 'reviewer')!;

async function withServices(ws: string, run: (s: Services) => Promise<void>): Promise<void> {
  const services = await createServices({ workspace: ws });
  try {
    await run(services);
  } finally {
    await services.dispose();
  }
}

test('first use writes the built-ins and a record of them; a deleted built-in stays deleted', async () => {
  const ws = tempDir();
  await withServices(ws, async (services) => {
    assert.deepEqual(await names(services), ['coder', 'reviewer']);
    assert.equal(fs.readFileSync(file(ws, 'coder.yaml'), 'utf8'), builtInText(coder));
    assert.deepEqual(Object.keys(record(ws).files).sort(), ['coder.yaml', 'reviewer.yaml']);
    fs.rmSync(file(ws, 'reviewer.yaml'));
    assert.deepEqual(await names(services), ['coder'], 'deleted: not written again');
  });
  // Another process, later: still deleted.
  await withServices(ws, async (services) => assert.deepEqual(await names(services), ['coder']));
  assert.equal(fs.existsSync(file(ws, 'reviewer.yaml')), false);
});

test("a person's own file first: the built-ins are written beside it, never over a name it takes", async () => {
  const ws = tempDir();
  fs.mkdirSync(agentsDir(ws), { recursive: true });
  fs.writeFileSync(file(ws, 'docs-writer.yaml'), 'name: docs-writer\ndescription: Writes the docs\nclient: codex\n');
  fs.writeFileSync(file(ws, 'reviewer.md'), '---\nclient: gemini-cli\n---\n# My reviewer\n');
  await withServices(ws, async (services) => {
    const { agents } = await services.agents.list();
    assert.deepEqual(
      agents.map((a) => [a.name, a.client, a.file]).sort(),
      [
        ['coder', 'claude-code', '.agent-ledger/agents/coder.yaml'],
        ['docs-writer', 'codex', '.agent-ledger/agents/docs-writer.yaml'],
        ['reviewer', 'gemini-cli', '.agent-ledger/agents/reviewer.md'],
      ],
      "coder written; the person's reviewer kept",
    );
    assert.equal(fs.existsSync(file(ws, 'reviewer.yaml')), false);
    assert.deepEqual(Object.keys(record(ws).files), ['coder.yaml'], 'only what the ledger wrote is recorded');
    assert.equal((await services.agents.get('coder')).name, 'coder');
  });
});

test('a built-in the person edited is theirs; an unedited one follows the ledger’s new version', async () => {
  const ws = tempDir();
  await withServices(ws, async (services) => void (await services.agents.list()));
  // The person edits the coder; the reviewer stays as an older ledger wrote it (its record says so).
  const edited = builtInText(coder).replace('model: sonnet', 'model: opus');
  fs.writeFileSync(file(ws, 'coder.yaml'), edited);
  const older = builtInText(reviewer).replace('# Reviewer', '# Reviewer (v0)');
  fs.writeFileSync(file(ws, 'reviewer.yaml'), older);
  const rec = record(ws);
  const { createHash } = await import('node:crypto');
  rec.files['reviewer.yaml'] = { sha256: createHash('sha256').update(older).digest('hex') };
  fs.writeFileSync(file(ws, writtenRecordFile), JSON.stringify(rec));
  await withServices(ws, async (services) => {
    assert.equal((await services.agents.get('coder')).model, 'opus', 'the edit is kept');
    assert.equal(fs.readFileSync(file(ws, 'coder.yaml'), 'utf8'), edited);
    assert.equal(fs.readFileSync(file(ws, 'reviewer.yaml'), 'utf8'), builtInText(reviewer), 'unedited: updated');
    assert.match((await services.agents.get('reviewer')).promptContent, /^# Reviewer\n/);
    // Edited, then deleted: it stays deleted too.
    fs.rmSync(file(ws, 'coder.yaml'));
    assert.deepEqual(await names(services), ['reviewer']);
  });
});

test('a folder from before the record: a built-in as the ledger wrote it means a missing one was deleted', async () => {
  const ws = tempDir();
  fs.mkdirSync(agentsDir(ws), { recursive: true });
  fs.writeFileSync(file(ws, 'coder.yaml'), builtInText(coder));
  await withServices(ws, async (services) => {
    assert.deepEqual(await names(services), ['coder']);
    assert.deepEqual(Object.keys(record(ws).files).sort(), ['coder.yaml', 'reviewer.yaml']);
  });
});

test('a read-only process shows the built-ins it would write and writes nothing; a damaged record is kept and said', async () => {
  const ws = tempDir();
  fs.mkdirSync(agentsDir(ws), { recursive: true });
  fs.writeFileSync(file(ws, 'mine.md'), '---\nclient: codex\n---\n# Mine\n');
  // A read-only process's registry (its store is elsewhere: listing reads only the folder).
  await withServices(tempDir(), async (other) => {
    const readonly = new AgentRegistry(other.engine, ws, systemClock, { readonly: true });
    assert.deepEqual(
      readonly
        .current()
        .agents.map((a) => a.name)
        .sort(),
      ['coder', 'mine', 'reviewer'],
    );
    assert.deepEqual(fs.readdirSync(agentsDir(ws)), ['mine.md']);
  });
  fs.writeFileSync(file(ws, writtenRecordFile), '{"version": 1, "files": {"coder.yaml": ');
  await withServices(ws, async (services) => {
    const { agents, problems } = await services.agents.list();
    assert.deepEqual(
      agents.map((a) => a.name),
      ['mine'],
      'nothing written on the word of a damaged record',
    );
    assert.deepEqual(
      problems.map((p) => p.file),
      [`.agent-ledger/agents/${writtenRecordFile}`],
    );
    assert.equal(
      fs.readFileSync(file(ws, writtenRecordFile), 'utf8'),
      '{"version": 1, "files": {"coder.yaml": ',
      'kept as it was',
    );
  });
});
