import type { Command } from 'commander';
import { serveStdio } from '../../mcp/serve';
import { parseHttpAddress } from '../../mcp/http/httpAddress';
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
      'Serve the ledger of a workspace to one MCP client over stdio (stdout carries only the protocol; logs go to stderr), or to many clients over Streamable HTTP with --http',
    )
    .option('--verbose', 'log every request to stderr')
    .option('--list-deprecated', 'also list the deprecated tools (they are answered either way)')
    .option(
      '--list-runner-tools',
      'also list the tools only a runner calls: health_check, list_active_projects_with_agents, should_start (answered either way)',
    )
    .option(
      '--http <[host:]port>',
      'serve MCP over Streamable HTTP at http://HOST:PORT/mcp instead of stdio (HOST defaults to 127.0.0.1; another address only with bearer tokens: `agent-ledger token create`)',
    )
    .option(
      '--stateful',
      'with --http: keep sessions for 2025-11-25 clients (their capabilities, checkpoints asked in their UI, resource notifications); 2026-07-28 clients are stateless either way',
    )
    .option('--sse', 'with --http: answer every request with an event stream (default: JSON unless a call streams)')
    .option('--no-token', 'with --http on loopback: accept requests without a bearer token, as this machine’s user')
    .option('--tls-cert <file>', 'with --http: serve HTTPS with this certificate (PEM), with --tls-key')
    .option('--tls-key <file>', 'with --http: the private key (PEM) of --tls-cert')
    .option(
      '--public-url <url>',
      'with --http behind a reverse proxy: the URL clients use (e.g. https://ledger.example.com/mcp): its host is accepted and published in the resource metadata',
    )
    .option('--allowed-host <name...>', 'with --http: more Host names to accept (DNS rebinding protection)')
    .option('--allowed-origin <name...>', 'with --http: browser origins (host names) to accept besides loopback')
    .option(
      '--authorization-server <url...>',
      "with --http: the team's OAuth/OIDC issuer, published in the protected-resource metadata",
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
      const common = {
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
      };
      if (typeof opts.http !== 'string') {
        const httpOnly = [
          'stateful',
          'sse',
          'tlsCert',
          'tlsKey',
          'publicUrl',
          'allowedHost',
          'allowedOrigin',
          'authorizationServer',
        ].find((o) => opts[o] !== undefined);
        if (httpOnly || opts.token === false)
          throw new LedgerError('ValidationError', `--${kebab(httpOnly ?? 'noToken')} goes with --http [HOST:]PORT`);
        await serveStdio(common);
        return;
      }
      // Loaded only for --http: a stdio server never evaluates the HTTP code.
      const { serveHttp } = await import('../../mcp/http/serveHttp.js');
      await serveHttp({
        ...common,
        address: parseHttpAddress(opts.http),
        stateful: opts.stateful === true,
        enableJson: opts.sse !== true,
        noToken: opts.token === false,
        tlsCert: opts.tlsCert as string | undefined,
        tlsKey: opts.tlsKey as string | undefined,
        publicUrl: opts.publicUrl as string | undefined,
        allowedHosts: opts.allowedHost as string[] | undefined,
        allowedOrigins: opts.allowedOrigin as string[] | undefined,
        authorizationServers: opts.authorizationServer as string[] | undefined,
      });
    } catch (err) {
      process.exitCode = reportError(err, false);
    }
  });
}

function kebab(option: string): string {
  return option.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

function camel(flag: string): string {
  return flag.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());
}
