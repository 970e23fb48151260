import type { Command } from 'commander';
import { serveStdio } from '../../mcp/serve';
import { familyInfos, noToolsYet } from '../../mcp/families';
import { readBuiltListing } from '../../mcp/listing/builtListing';
import { featureNames, features } from '../../mcp/features';
import { LedgerError } from '../../core/errors';
import { reportError } from '../output';
import { childOptions, resolveWorkspace, worktreesDirOption } from '../withServices';
import type { ChildOptions } from '../withServices';

export function registerMcpCommands(mcp: Command): void {
  const serve = mcp
    .command('serve')
    .description(
      'Serve the ledger of a workspace to one MCP client over stdio (stdout carries only the protocol; logs go to stderr)',
    )
    .option('--verbose', 'log every request to stderr')
    .option('--list-deprecated', 'also list the deprecated tools (they are answered either way)')
    .option(
      '--list-runner-tools',
      'also list the tools only a runner calls: health_check, list_active_projects_with_agents, should_start (answered either way)',
    )
    .option(
      '--allow-agent-checkpoints',
      'let the agent answer pipeline checkpoints with user_response (by default only a person can, in VS Code or with `agent-ledger pipeline approve|reject`)',
    );
  // A family without a tool says so (the build's listing knows; from sources the note is left out).
  const listing = readBuiltListing();
  for (const f of familyInfos) {
    const empty = listing?.families.find((l) => l.name === f.name)?.tools.length === 0;
    const note = empty
      ? ` (${noToolsYet}: this switch exposes nothing for now)`
      : f.enabledByDefault
        ? ' (on by default)'
        : '';
    serve.option(`--enable-${f.name}`, `expose the ${f.name} tools${note}`);
    serve.option(`--disable-${f.name}`, `hide the ${f.name} tools`);
  }
  for (const f of features) {
    serve.option(`--enable-${f.name}`, `expose ${f.description} (part of the ${f.family} family)`);
    serve.option(`--disable-${f.name}`, `hide ${f.name} even when the ${f.family} family is on`);
  }
  serve.action(async (opts: Record<string, unknown>, cmd: Command) => {
    const all = cmd.optsWithGlobals<
      Record<string, unknown> & { workspace?: string; db?: string; worktreesDir?: string } & ChildOptions
    >();
    try {
      const families = familyInfos.map((f) => f.name);
      const enable = families.filter((f) => opts[camel(`enable-${f}`)] === true);
      const disable = families.filter((f) => opts[camel(`disable-${f}`)] === true);
      const both = enable.filter((f) => disable.includes(f));
      if (both.length)
        throw new LedgerError('ValidationError', `--enable-${both[0]} and --disable-${both[0]} contradict each other`);
      const enableFeatures = featureNames.filter((f) => opts[camel(`enable-${f}`)] === true);
      const disableFeatures = featureNames.filter((f) => opts[camel(`disable-${f}`)] === true);
      const clash = enableFeatures.find((f) => disableFeatures.includes(f));
      if (clash)
        throw new LedgerError('ValidationError', `--enable-${clash} and --disable-${clash} contradict each other`);
      await serveStdio({
        workspace: resolveWorkspace(all.workspace, { db: all.db, secondLedgerOk: true }),
        dbPath: all.db,
        worktreesDir: worktreesDirOption(all),
        ...childOptions(all),
        enable,
        disable,
        enableFeatures,
        disableFeatures,
        verbose: opts.verbose === true,
        allowAgentCheckpoints: opts.allowAgentCheckpoints === true,
        list: { deprecated: opts.listDeprecated === true, runnerTools: opts.listRunnerTools === true },
      });
    } catch (err) {
      process.exitCode = reportError(err, false);
    }
  });
}

function camel(flag: string): string {
  return flag.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());
}
