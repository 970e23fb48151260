import * as fs from 'node:fs';
import type { Command } from 'commander';
import type { TokenInfo, TokenRole } from '../../core/access/tokenService';
import { tokenRoles } from '../../core/access/tokenService';
import { validationError } from '../../core/errors';
import { printJson, printLines, style, table } from '../output';
import type { CommonOptions } from '../output';
import { visible } from '../terminalText';
import { withServices } from '../withServices';

/** `90d`, `12h`, `30m`, `3600s` or plain seconds. */
export function parseTtl(text: string): number {
  const m = /^(\d+)\s*([smhd]?)$/i.exec(text.trim());
  if (!m) throw validationError(`--expires takes a duration like 90d, 12h or 30m, got ${JSON.stringify(text)}`);
  const unit = { '': 1, s: 1, m: 60, h: 3600, d: 86400 }[m[2].toLowerCase() as '' | 's' | 'm' | 'h' | 'd'];
  return Number(m[1]) * unit;
}

function tokenRow(t: TokenInfo): string[] {
  const status =
    t.status === 'active' ? style.green(t.status) : t.status === 'revoked' ? style.red(t.status) : style.dim(t.status);
  const scope =
    t.role === 'agent' ? `${visible(t.agent ?? '')} in ${t.projects?.map(visible).join(', ') ?? 'every project'}` : '';
  return [style.bold(t.id), t.role, visible(t.name), scope || '-', t.expires_at.slice(0, 16).replace('T', ' '), status];
}

/**
 * `agent-ledger token …`: the bearer tokens of `mcp serve --http`. A token is shown once, when it
 * is made (or written to a file only its owner reads, with --out); the ledger keeps its digest.
 * The command runs against the ledger itself (the workspace's, or `--db`): whoever runs it holds
 * the ledger, as an admin does.
 */
export function registerTokenCommands(token: Command): void {
  token
    .command('create')
    .description('Make a bearer token for the HTTP server; its secret is shown once')
    .argument('<role>', `who holds it: ${tokenRoles.join(', ')}`)
    .option('--name <name>', "the person's name (recorded on their decisions), or a label; agent tokens: the agent")
    .option('--agent <agent>', 'agent tokens: the agent it acts as (its definition’s name)')
    .option(
      '--project <project...>',
      'agent tokens: the projects it may act in (prj-1 or a name); default: every project',
    )
    .option('--expires <duration>', 'how long it is valid: 90d (default), 12h, 30m')
    .option('--out <file>', 'write the secret to this file (mode 600) instead of printing it')
    .action(
      (
        role: string,
        o: { name?: string; agent?: string; project?: string[]; expires?: string; out?: string },
        cmd: Command,
      ) => {
        const json = cmd.optsWithGlobals<CommonOptions>().json === true;
        return withServices(cmd, { readonly: false }, async (services) => {
          if (!tokenRoles.includes(role as TokenRole))
            throw validationError(`role must be one of ${tokenRoles.join(', ')}, got ${JSON.stringify(role)}`);
          const { token: made, secret } = await services.tokens.create({
            role: role as TokenRole,
            name: o.name,
            agent: o.agent,
            projects: o.project,
            ttlSeconds: o.expires === undefined ? undefined : parseTtl(o.expires),
          });
          if (o.out !== undefined) fs.writeFileSync(o.out, `${secret}\n`, { mode: 0o600, flag: 'wx' });
          if (json) return printJson({ token: made, ...(o.out === undefined ? { secret } : { secret_file: o.out }) });
          printLines([
            `${style.bold(made.id)} ${made.role} ${visible(made.name)}, valid until ${made.expires_at}`,
            ...(o.out === undefined
              ? [secret, style.dim('Shown once: copy it now (the ledger keeps only its digest).')]
              : [style.dim(`secret written to ${o.out}`)]),
          ]);
        });
      },
    );

  token
    .command('list')
    .description('List tokens (never their secrets)')
    .option('--all', 'also expired and revoked ones')
    .action((o: { all?: boolean }, cmd: Command) => {
      const json = cmd.optsWithGlobals<CommonOptions>().json === true;
      return withServices(cmd, { readonly: true }, async (services) => {
        const tokens = await services.tokens.list({ all: o.all === true });
        if (json) return printJson({ tokens });
        if (tokens.length === 0)
          return printLines([style.dim('no tokens yet: agent-ledger token create person --name <you>')]);
        printLines(
          table([
            ['ID', 'ROLE', 'NAME', 'SCOPE', 'EXPIRES', 'STATUS'].map((h) => style.dim(h)),
            ...tokens.map(tokenRow),
          ]),
        );
      });
    });

  token
    .command('revoke')
    .description('Revoke a token: every server on this ledger refuses it from its next request')
    .argument('<token>', 'the token id (token-3)')
    .action((ref: string, _o: unknown, cmd: Command) => {
      const json = cmd.optsWithGlobals<CommonOptions>().json === true;
      return withServices(cmd, { readonly: false }, async (services) => {
        const revoked = await services.tokens.revoke(ref);
        if (json) return printJson({ token: revoked });
        printLines([`${style.bold(revoked.id)} revoked`]);
      });
    });
}
