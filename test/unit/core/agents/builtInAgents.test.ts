// The built-in coder and reviewer beside a person's own agent files, on a real folder: the record
// of what the ledger wrote (with hashes) tells a deleted built-in, an edited one and a person's
// new file apart.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createServices } from '../../../../src/app/services';
import type { Services } from '../../../../src/app/services';
import { defaultAgents } from '../../../../src/core/agents/agentFiles';
import { AgentRegistry } from '../../../../src/core/agents/agentRegistry';
import { systemClock } from '../../../../src/core/time';
import { builtInText } from '../../../../src/core/agents/builtInAgents';
import { sha256, writtenRecordFolder } from '../../../../src/core/agents/writtenRecord';
import { tempDir } from '../../../helpers/tmp';

const agentsDir = (ws: string) => path.join(ws, '.agent-ledger', 'agents');
const file = (ws: string, name: string) => path.join(agentsDir(ws), name);
const entry = (ws: string, name: string) => path.join(agentsDir(ws), writtenRecordFolder, `${name}.sha256`);
/** The record as `sha256sum` files: agent file name → hash. */
const record = (ws: string) => {
  const dir = path.join(agentsDir(ws), writtenRecordFolder);
  const files: Record<string, { sha256: string }> = {};
  for (const name of fs.readdirSync(dir).sort()) {
    const [hash, of] = fs.readFileSync(path.join(dir, name), 'utf8').trimEnd().split('  ');
    assert.equal(`${of}.sha256`, name, 'each entry names its own file');
    files[of] = { sha256: hash };
  }
  return { files };
};
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
  fs.writeFileSync(entry(ws, 'reviewer.yaml'), `${sha256(older)}  reviewer.yaml\n`);
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
  // The record folder replaced by a file (a merge gone wrong, an older tool): kept, said, nothing written on its word.
  const damaged = '{"version": 1, "files": {"coder.yaml": ';
  fs.writeFileSync(file(ws, writtenRecordFolder), damaged);
  await withServices(ws, async (services) => {
    const { agents, problems } = await services.agents.list();
    assert.deepEqual(
      agents.map((a) => a.name),
      ['mine'],
      'nothing written on the word of a damaged record',
    );
    assert.deepEqual(
      problems.map((p) => p.file),
      [`.agent-ledger/agents/${writtenRecordFolder}`],
    );
    assert.equal(fs.readFileSync(file(ws, writtenRecordFolder), 'utf8'), damaged, 'kept as it was');
    assert.deepEqual(fs.readdirSync(agentsDir(ws)).sort(), [writtenRecordFolder, 'mine.md']);
  });
});

test('a damaged entry is kept and said, its file left alone; the other built-in goes on', async () => {
  const ws = tempDir();
  await withServices(ws, async (services) => void (await services.agents.list()));
  // The person deleted the coder; a merge left conflict markers in its entry.
  fs.rmSync(file(ws, 'coder.yaml'));
  const conflict = [
    '<<<<<<< HEAD',
    `${sha256(builtInText(coder))}  coder.yaml`,
    '=======',
    `${sha256('older')}  coder.yaml`,
    '>>>>>>> theirs',
    '',
  ].join('\n');
  fs.writeFileSync(entry(ws, 'coder.yaml'), conflict);
  fs.rmSync(file(ws, 'reviewer.yaml'));
  fs.rmSync(entry(ws, 'reviewer.yaml'));
  await withServices(ws, async (services) => {
    const { agents, problems } = await services.agents.list();
    assert.deepEqual(
      agents.map((a) => a.name),
      ['reviewer'],
      'the coder is not written again on a damaged entry; the reviewer, never recorded now, is',
    );
    assert.deepEqual(
      problems.map((p) => p.file),
      [`.agent-ledger/agents/${writtenRecordFolder}/coder.yaml.sha256`],
    );
    assert.match(problems[0].message, /cannot be read/);
    assert.equal(fs.readFileSync(entry(ws, 'coder.yaml'), 'utf8'), conflict, 'kept byte for byte');
    assert.equal(fs.existsSync(file(ws, 'coder.yaml')), false);
    assert.equal(
      fs.readFileSync(entry(ws, 'reviewer.yaml'), 'utf8'),
      `${sha256(builtInText(reviewer))}  reviewer.yaml\n`,
    );
  });
});

test("a fresh workspace's first Board offers the built-ins, nothing having listed agents before", async () => {
  const ws = tempDir();
  await withServices(ws, async (services) => {
    // The Board's own read, first thing: its agents come from the index.
    const { agents } = await services.board.board();
    assert.deepEqual(agents, [
      { name: 'coder', client: 'claude-code' },
      { name: 'reviewer', client: 'claude-code' },
    ]);
    assert.equal(fs.readFileSync(file(ws, 'coder.yaml'), 'utf8'), builtInText(coder), 'written at the same moment');
  });
  // A folder committed with a person's file, and a ledger that has never seen it (a fresh clone).
  const clone = tempDir();
  fs.mkdirSync(agentsDir(clone), { recursive: true });
  fs.writeFileSync(file(clone, 'mine.md'), '---\nclient: codex\n---\n# Mine\n');
  await withServices(clone, async (services) => {
    assert.deepEqual(
      (await services.board.board()).agents.map((a) => `${a.name}:${a.client}`),
      ['coder:claude-code', 'mine:codex', 'reviewer:claude-code'],
    );
  });
});

test('a built-in written by a lookup that is not a listing is on the Board at once', async () => {
  const ws = tempDir();
  fs.mkdirSync(agentsDir(ws), { recursive: true });
  fs.writeFileSync(file(ws, 'coder.md'), '---\nclient: codex\n---\n# My coder\n');
  await withServices(ws, async (services) => {
    const client = async () => (await services.board.board()).agents.find((a) => a.name === 'coder')?.client;
    assert.equal(await client(), 'codex', "the person's coder");
    // They delete their coder; a lookup (the runner's, a resource read) writes the built-in beside the rest.
    fs.rmSync(file(ws, 'coder.md'));
    assert.equal(services.agents.lookup('coder').client, 'claude-code');
    await services.agents.indexed();
    assert.equal(await client(), 'claude-code', 'indexed when it was written, not at the next listing');
  });
});

test('two processes opening the same workspaces at once: the built-ins, their record and index whole in each', async () => {
  // Half fresh (the folder written whole and renamed into place), half with a person's file (the built-ins beside it).
  const workspaces = Array.from({ length: 12 }, (_, i) => {
    const ws = tempDir();
    if (i % 2) {
      fs.mkdirSync(agentsDir(ws), { recursive: true });
      fs.writeFileSync(file(ws, 'mine.md'), '---\nclient: codex\n---\n# Mine\n');
    }
    return ws;
  });
  const fixture = path.join(__dirname, 'agentsListRacer.fixture.ts');
  const racers = [0, 1].map(() => {
    const child = spawn(process.execPath, ['--import', 'tsx', fixture, ...workspaces], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const ready = new Promise<void>((resolve) =>
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.startsWith('ready\n')) resolve();
      }),
    );
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    return { child, ready, done: async () => ({ code: await exited, out, err }) };
  });
  await Promise.all(racers.map((r) => r.ready));
  for (const r of racers) r.child.stdin.end('go\n');
  for (const r of await Promise.all(racers.map((r) => r.done()))) {
    assert.equal(r.code, 0, r.err);
    assert.equal(r.out, 'ready\ndone\n', 'no problem listed by either process');
  }
  for (const [i, ws] of workspaces.entries()) {
    const expected = i % 2 ? ['coder', 'mine', 'reviewer'] : ['coder', 'reviewer'];
    assert.equal(fs.readFileSync(file(ws, 'coder.yaml'), 'utf8'), builtInText(coder));
    assert.equal(fs.readFileSync(file(ws, 'reviewer.yaml'), 'utf8'), builtInText(reviewer));
    assert.deepEqual(record(ws).files, {
      'coder.yaml': { sha256: sha256(builtInText(coder)) },
      'reviewer.yaml': { sha256: sha256(builtInText(reviewer)) },
    });
    assert.deepEqual(
      fs.readdirSync(path.join(agentsDir(ws), '..')).filter((n) => n.startsWith('.agents-')),
      [],
    );
    await withServices(ws, async (services) => {
      // The index as the racers left it: read without listing first.
      const rows = await services.engine.read((db) =>
        db.all<{ name: string }>('SELECT name FROM agents ORDER BY name'),
      );
      assert.deepEqual(
        rows.map((r) => r.name),
        expected,
        `the index of workspace ${i}`,
      );
    });
  }
});
