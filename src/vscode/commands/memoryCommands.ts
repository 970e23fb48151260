import * as vscode from 'vscode';
import { LedgerError } from '../../core/errors';
import { parseInput } from '../../core/contracts/inputValidation';
import { memoryStatuses } from '../../core/memory/memoryModel';
import type { MemoryEntry, MemoryStatus } from '../../core/memory/memoryModel';
import { plural, truncate } from '../../core/format';
import type { LedgerRegistry } from '../ledger/ledgerRegistry';
import { loadDomain } from '../ledger/loadDomain';
import type { MemoryCategoryNode, MemoryEntryNode } from '../views/memory/memoryItems';
import { askChoice, askText, optionalText, schemaCheck } from './prompts';
import type { Choice, Step } from './prompts';
import { writableLedger } from './writableLedger';

/** A Memory Bank entry a command acts on: a view row, `{ folder, category, id }` (tests, other extensions), or nothing (the palette: the person picks). */
export type MemoryEntryArg = MemoryEntryNode | { folder: string; category: string; id: string } | undefined;

/** What the memory commands return: memory_list's row. */
export type MemoryEntryRef = Pick<MemoryEntry, 'category' | 'id' | 'title' | 'status' | 'file'>;

const statusHints: Record<MemoryStatus, string> = {
  active: 'given to every agent (memory_preview, worker prompts)',
  draft: 'listed, not given to agents yet',
  archived: 'kept for the record, not given to agents',
};

/** Add Memory Bank Entry and Archive: the Markdown files of `.agent-ledger/memory/`, written by core's MemoryBank. */
export class MemoryCommands {
  constructor(private readonly registry: LedgerRegistry) {}

  /** Asks category, title, id, summary and status, then writes the file through memory_add's service and opens it for the body. */
  async addEntry(arg?: MemoryCategoryNode | { folder?: string }): Promise<MemoryEntryRef | undefined> {
    const folder = arg && 'kind' in arg ? arg.ledger.root : arg?.folder;
    const target = await writableLedger(this.registry, folder, 'Add the entry to the Memory Bank of which folder?');
    if (!target) return undefined;
    const { services } = target;
    const schema = loadDomain().memoryAddInput;
    const { memories } = services.memory.current();
    const step = (n: number): Step => ({ title: 'Add Memory Bank Entry', step: n, totalSteps: 5 });

    const categories = [...new Set(memories.map((m) => m.category))].sort();
    const chosen =
      arg && 'kind' in arg
        ? arg.category
        : categories.length === 0
          ? undefined
          : await askChoice<string | undefined>(
              step(1),
              [
                ...categories.map((c) => ({
                  label: `$(folder-library) ${c}`,
                  description: plural(memories.filter((m) => m.category === c).length, 'entry', 'entries'),
                  value: c,
                })),
                { label: '$(add) New category…', value: undefined },
              ],
              { placeholder: 'Category: the folder the entry goes in' },
            );
    const category =
      chosen ??
      (await askText(step(1), {
        prompt: 'Category: the folder the entry goes in',
        placeholder: 'e.g. tooling, architecture, rule',
        validate: schemaCheck(schema, 'category'),
      }));
    const title = await askText(step(2), {
      prompt: 'Title',
      placeholder: 'e.g. Test framework',
      validate: schemaCheck(schema, 'title'),
    });
    const taken = new Set(memories.filter((m) => m.category === category).map((m) => m.id));
    const id = await askText(step(3), {
      prompt: `Id: the file name, .agent-ledger/memory/${category}/<id>.md`,
      value: slug(title),
      validate: (text) =>
        schemaCheck(schema, 'id')(text) ??
        (taken.has(text) ? `memory entry ${category}/${text} already exists; choose another id` : undefined),
    });
    const summary = optionalText(
      await askText(step(4), {
        prompt: 'Summary (optional): the one line every agent is given',
        placeholder: 'e.g. Vitest: fast, Vite compatible',
        validate: schemaCheck(schema, 'summary', optionalText),
      }),
    );
    const statusChoices = memoryStatuses.map((s): Choice<MemoryStatus> => ({
      label: s,
      description: statusHints[s],
      value: s,
    }));
    const status = await askChoice(step(5), statusChoices, { placeholder: 'Status', active: 'active' });

    const entry = await services.memory.add(parseInput('memory_add', schema, { id, category, title, summary, status }));
    const uri = vscode.Uri.joinPath(target.ledger.folder.uri, ...entry.file.split('/'));
    await vscode.window.showTextDocument(uri, { preview: false });
    void vscode.window.showInformationMessage(
      `Added ${entry.category}/${entry.id} to the Memory Bank${entry.status === 'active' ? ': agents get it from now on' : ` as ${entry.status}`}. Write the details below the front matter.`,
    );
    return ref(entry);
  }

  /** Sets `status: archived` in the entry's front matter (the rest of the file stays as written): agents stop getting it. */
  async archiveEntry(arg: MemoryEntryArg): Promise<MemoryEntryRef | undefined> {
    const target = await this.resolveEntry(arg);
    if (!target) return undefined;
    const services = await target.ledger.require();
    const entry = await services.memory.setStatus(target.category, target.id, 'archived');
    void vscode.window.showInformationMessage(
      `Archived ${entry.category}/${entry.id} "${truncate(entry.title, 60)}": agents no longer get it. Set its status back in the front matter to restore it.`,
    );
    return ref(entry);
  }

  private async resolveEntry(
    arg: MemoryEntryArg,
  ): Promise<{ ledger: MemoryEntryNode['ledger']; category: string; id: string } | undefined> {
    if (arg && 'kind' in arg) return { ledger: arg.ledger, category: arg.entry.category, id: arg.entry.id };
    if (arg) {
      const ledger = this.registry.byPath(arg.folder);
      if (!ledger) throw new LedgerError('NotFound', `${arg.folder} is not a folder of this window's workspace`);
      return { ledger, category: arg.category, id: arg.id };
    }
    const ledger = await this.registry.pick(undefined, 'Archive an entry of which folder?');
    if (!ledger) return undefined;
    const candidates = (await ledger.require()).memory.current().memories.filter((m) => m.status !== 'archived');
    if (candidates.length === 0) {
      void vscode.window.showInformationMessage(`The Memory Bank of ${ledger.name} has no entry to archive.`);
      return undefined;
    }
    const picked = await vscode.window.showQuickPick(
      candidates.map((m) => ({
        label: m.title,
        description: `${m.category}/${m.id} · ${m.status}`,
        detail: m.summary ?? undefined,
        m,
      })),
      { placeHolder: 'Archive which entry?', matchOnDescription: true },
    );
    return picked ? { ledger, category: picked.m.category, id: picked.m.id } : undefined;
  }
}

function ref(e: MemoryEntryRef): MemoryEntryRef {
  return { category: e.category, id: e.id, title: e.title, status: e.status, file: e.file };
}

/** "Test framework (v2)" → "test-framework-v2": a proposal for the id, which the person may change. */
export function slug(title: string): string {
  return title
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[-._]+|[-._]+$/g, '')
    .slice(0, 60)
    .replace(/[-._]+$/, '');
}
