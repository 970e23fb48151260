import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as os from 'node:os';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import { buildProgram } from '../../../src/cli/program';
import { topCommands } from '../../../src/cli/commandTable';

const root = path.resolve(__dirname, '../../..');

/**
 * The modules a command line evaluates before it runs: the static imports of src/cli/main.ts
 * and of the command modules it loads, from esbuild's metafile of the CLI bundled with code
 * splitting (a dynamic import is a chunk of its own, evaluated only when called).
 */
async function evaluatedModules(...commandModules: string[]): Promise<{ evaluated: string[]; all: number }> {
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: ['src/cli/main.ts'],
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    outdir: path.join(os.tmpdir(), 'agent-ledger-startup-modules'),
    write: false,
    metafile: true,
    logLevel: 'error',
  });
  const outputs = result.metafile.outputs;
  const chunkOf = (input: string): string => {
    const found = Object.entries(outputs).find(([, o]) => o.entryPoint === input)?.[0];
    assert.ok(found, `${input} is a chunk of its own (loaded by a dynamic import)`);
    return found;
  };
  const seen = new Set<string>();
  const todo = [chunkOf('src/cli/main.ts'), ...commandModules.map(chunkOf)];
  while (todo.length > 0) {
    const chunk = todo.pop()!;
    if (seen.has(chunk)) continue;
    seen.add(chunk);
    for (const i of outputs[chunk].imports) if (i.kind === 'import-statement' && outputs[i.path]) todo.push(i.path);
  }
  return {
    evaluated: [...seen].flatMap((c) => Object.keys(outputs[c].inputs)),
    all: Object.keys(result.metafile.inputs).length,
  };
}

test('mcp serve evaluates no tool contract, no other command and no store before it lists the tools', async () => {
  const { evaluated, all } = await evaluatedModules('src/cli/commands/mcpServe.ts');
  const ours = evaluated.filter((f) => f.startsWith('src/'));
  assert.ok(ours.includes('src/mcp/serve.ts') && ours.includes('src/mcp/families.ts'), 'the server itself is there');
  const unwanted = ours.filter(
    (f) =>
      f === 'src/mcp/catalog.ts' ||
      f === 'src/app/services.ts' ||
      f === 'src/cli/toolGroups.ts' ||
      /Contracts\.ts$/.test(f) ||
      (f.startsWith('src/mcp/tools/') && !f.endsWith('/family.ts')) ||
      (f.startsWith('src/cli/commands/') && f !== 'src/cli/commands/mcpServe.ts') ||
      // repositoryOf.ts reads `.git` entries without starting Git: the workspace is found with it.
      (/^src\/(store\/(embedded|postgres)|git|processes)\//.test(f) && f !== 'src/git/repositoryOf.ts'),
  );
  assert.deepEqual(unwanted, []);
  assert.ok(evaluated.length < all / 2, `${evaluated.length} of ${all} modules`);
});

test('mcp serve evaluates no YAML parser (agent:// loads it at its first read) and no events log code (features.ts takes only the idempotency settings)', async () => {
  const { evaluated } = await evaluatedModules('src/cli/commands/mcpServe.ts');
  assert.ok(
    evaluated.includes('src/mcp/features.ts') && evaluated.includes('src/mcp/resources/agentResource.ts'),
    'the modules that pulled them are there',
  );
  const unwanted = evaluated.filter(
    (f) =>
      f.includes('node_modules/yaml/') ||
      f === 'src/core/agents/agentFiles.ts' ||
      f === 'src/core/events/correlation.ts' ||
      f === 'src/core/coordination/idempotency/idempotencyRuns.ts',
  );
  assert.deepEqual(unwanted, []);
});

test('--help evaluates no command module at all', async () => {
  const { evaluated } = await evaluatedModules();
  assert.deepEqual(
    evaluated.filter((f) => f.startsWith('src/cli/commands/') || f.startsWith('src/mcp/')),
    [],
  );
});

test('the command line builds the commands it names; --help lists every one with its description', async () => {
  const serve = await buildProgram(['node', 'agent-ledger', 'mcp', 'serve']);
  assert.deepEqual(
    serve.commands.map((c) => c.name()),
    topCommands.map((t) => t.name),
  );
  assert.deepEqual(
    serve.commands.filter((c) => c.commands.length > 0).map((c) => c.name()),
    ['mcp'],
  );
  assert.deepEqual(
    serve.commands.find((c) => c.name() === 'runner')?.options.map((o) => o.long),
    ['--workspace', '--db', '--worktrees-dir', '--child-program', '--child-env', '--json'],
    'a command not named has only the common options',
  );
  const help = serve.helpInformation();
  for (const t of topCommands)
    assert.ok(help.includes(t.name) && help.includes(t.description.slice(0, 30)), `--help lists ${t.name}`);

  const task = await buildProgram(['node', 'agent-ledger', '--json', 'task', 'list']);
  assert.deepEqual(
    task.commands.filter((c) => c.commands.length > 0).map((c) => c.name()),
    ['task'],
  );
  assert.ok(task.commands.find((c) => c.name() === 'task')!.commands.some((c) => c.name() === 'list'));

  const everything = await buildProgram();
  const withSubcommands = everything.commands.filter((c) => c.commands.length > 0).map((c) => c.name());
  assert.deepEqual(
    withSubcommands,
    // runner, watch and ui are commands of their own, with options and no subcommands.
    topCommands.map((t) => t.name).filter((n) => !['runner', 'watch', 'ui'].includes(n)),
    'without a command line every command is built',
  );
  assert.ok(everything.commands.find((c) => c.name() === 'runner')!.options.some((o) => o.long === '--max-parallel'));
  assert.ok(everything.commands.find((c) => c.name() === 'watch')!.options.some((o) => o.long === '--kind'));
  assert.ok(everything.commands.find((c) => c.name() === 'ui')!.options.some((o) => o.long === '--port'));
});

test('zod is told to compile no parser before any schema exists: zodJitless is the first module main.ts evaluates', async () => {
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: ['src/cli/main.ts'],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    write: false,
    metafile: true,
    logLevel: 'error',
  });
  const first = result.metafile.inputs['src/cli/main.ts'].imports[0];
  assert.equal(first?.path, 'src/cli/zodJitless.ts');
  // Its own imports build no schema: zod's core only.
  const own = result.metafile.inputs['src/cli/zodJitless.ts'].imports.map((i) => i.path);
  assert.ok(
    own.every((p) => p.includes('node_modules/zod/')),
    own.join(', '),
  );
});

test('the pipeline commands evaluate no YAML parser, no flow schema and no zod schema builder before they run', async () => {
  const { evaluated } = await evaluatedModules('src/cli/commands/pipelineCommands.ts');
  assert.ok(
    evaluated.includes('src/core/pipelines/engine/flowTemplate.ts'),
    "the flow's names are there (the options use them)",
  );
  const unwanted = evaluated.filter(
    (f) =>
      f === 'src/core/pipelines/engine/flowParse.ts' ||
      f.includes('node_modules/yaml/') ||
      f.includes('node_modules/zod/v4/classic/'),
  );
  assert.deepEqual(unwanted, []);
});
