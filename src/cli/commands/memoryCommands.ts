import * as fs from 'node:fs';
import type { Command } from 'commander';
import type { MemoryListResult, MemoryPreview, MemorySummary } from '../../core/memory/memoryContracts';
import { memoryStatuses } from '../../core/memory/memoryModel';
import { LedgerError } from '../../core/errors';
import { style, table } from '../output';
import { visible, visibleBlock } from '../terminalText';
import { numberArg, runToolCommand } from '../toolCommand';

/** `agent-ledger memory …`: memory_list, memory_add and memory_preview. */
export function registerMemoryCommands(memory: Command): void {
  memory
    .command('list')
    .description('List Memory Bank entries (memory_list)')
    .option('--category <name>', 'only this category')
    .option('--status <status>', memoryStatuses.join(', '))
    .action((o: { category?: string; status?: string }, cmd: Command) =>
      runToolCommand(cmd, {
        tool: 'memory_list',
        args: { category: o.category, status: o.status },
        format: ({ memories, problems }: MemoryListResult) => {
          const rows = [[style.dim('ENTRY'), style.dim('STATUS'), style.dim('TITLE')]];
          for (const m of memories)
            rows.push([
              style.bold(visible(`${m.category}/${m.id}`)),
              m.status,
              `${visible(m.title)}${m.summary ? style.dim(` — ${visible(m.summary)}`) : ''}`,
            ]);
          const lines = memories.length ? table(rows) : ['No Memory Bank entries match.'];
          return [...lines, ...problems.map((p) => style.yellow(`⚠ ${visible(p.file)}: ${visible(p.message)}`))];
        },
      }),
    );

  memory
    .command('add')
    .description('Add an entry; never overwrites (memory_add)')
    .argument('<id>', 'entry id, the file name without .md (e.g. test-framework)')
    .requiredOption('--category <name>', 'category folder (e.g. tooling)')
    .requiredOption('--title <text>', 'short title')
    .option('--summary <text>', 'one line given to every agent')
    .option('--status <status>', `${memoryStatuses.join(', ')} (default active)`)
    .option('--content <markdown>', 'the body')
    .option('--content-file <file>', 'read the body from a file ("-" for stdin)')
    .action(
      (
        id: string,
        o: {
          category: string;
          title: string;
          summary?: string;
          status?: string;
          content?: string;
          contentFile?: string;
        },
        cmd: Command,
      ) =>
        runToolCommand(cmd, {
          tool: 'memory_add',
          args: {
            id,
            category: o.category,
            title: o.title,
            summary: o.summary,
            status: o.status,
            content: o.content ?? readContent(o.contentFile),
          },
          format: (m: MemorySummary) => [`${style.green('added')} ${visible(m.file)} ${style.dim(`(${m.status})`)}`],
        }),
    );

  memory
    .command('preview')
    .description('Print the context given to agents: active entries under a size budget (memory_preview)')
    .option('--max-chars <n>', 'size budget in characters (default 4000)')
    .action((o: { maxChars?: string }, cmd: Command) =>
      runToolCommand(cmd, {
        tool: 'memory_preview',
        args: { maxChars: numberArg(o.maxChars) },
        format: (p: MemoryPreview) => [
          p.context ? visibleBlock(p.context) : style.dim('(no active Memory Bank entries)'),
        ],
      }),
    );
}

function readContent(file: string | undefined): string | undefined {
  if (file === undefined) return undefined;
  try {
    return fs.readFileSync(file === '-' ? 0 : file, 'utf8');
  } catch (err) {
    throw new LedgerError('ValidationError', `cannot read --content-file ${file}: ${(err as Error).message}`);
  }
}
