// Agent Ledger (this repository) as the peer benchmark drives it: the built dist/cli.js,
// `mcp serve --workspace DIR`, every tool family on as a user gets it by default.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ServerAdapter } from './adapter';
import { peerHome, seedDescription, seedTitle, tempProject } from './adapter';
import type { Session } from './session';

const cli = path.resolve(__dirname, '..', '..', 'dist', 'cli.js');

interface Row {
  id: number;
  title: string;
}

/** Every task row, paging through task_list 500 at a time (its largest page). */
async function allRows(s: Session): Promise<Row[]> {
  const rows: Row[] = [];
  let offset: number | null = 0;
  while (offset !== null) {
    const page = (await s.call('task_list', { limit: 500, offset })).structured as {
      tasks: Row[];
      nextOffset: number | null;
    };
    rows.push(...page.tasks);
    offset = page.nextOffset;
  }
  return rows;
}

/** The adapter for our own server. */
export const agentLedger: ServerAdapter = {
  key: 'ours',
  name: 'Agent Ledger',
  short: 'ours',
  tools: {
    spawn: 'all families on (default)',
    seed: 'task_create, one per task (no batch tool)',
    get: 'task_get {id}',
    list: 'task_list {limit: 500, offset} until nextOffset is null',
    page: 'task_list {} (first 20 rows + total)',
    status: 'task_update {id, status: "cancelled"}',
    create: 'task_create {title, description}',
  },
  async prepare() {
    if (!fs.existsSync(cli)) throw new Error(`${cli} is missing: run npm run build (npm run bench builds first)`);
  },
  async newProject() {
    return tempProject('ours');
  },
  launch(project) {
    return {
      command: process.execPath,
      args: [cli, 'mcp', 'serve', '--workspace', project],
      env: { HOME: peerHome() },
      cwd: project,
    };
  },
  async create(s, _project, title) {
    const answer = await s.call('task_create', { title, description: 'Created by the peer benchmark.' });
    if (typeof answer.structured?.id !== 'number')
      throw new Error(`task_create answered without an id: ${answer.text.slice(0, 200)}`);
  },
  async seed(s, _project, from, count) {
    for (let i = from; i < from + count; i++)
      await s.call('task_create', { title: seedTitle(i), description: seedDescription(i) });
  },
  async ids(s) {
    return (await allRows(s)).map((r) => String(r.id)).reverse();
  },
  async titles(s) {
    return (await allRows(s)).map((r) => r.title);
  },
  run: {
    get: (s, _project, id) => s.call('task_get', { id: Number(id) }),
    list: (s) => allRows(s),
    page: (s) => s.call('task_list', {}),
    status: (s, _project, id) => s.call('task_update', { id: Number(id), status: 'cancelled' }),
  },
};
