// What the peer benchmark needs from each server: how to set up a project and start the server,
// and how each benchmarked operation maps onto that server's own tools.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Launch, Session } from './session';

/** The operations the benchmark times, in table order. */
export const operations = ['get', 'list', 'page', 'status', 'create'] as const;
/** One benchmarked operation. */
export type Operation = (typeof operations)[number];

/** What each operation means, for the mapping table. */
export const operationLabels: Record<Operation | 'seed' | 'spawn', string> = {
  spawn: 'spawn → tools listed',
  seed: 'seed tasks',
  get: 'get one task',
  list: 'list every task',
  page: 'list one page of tasks',
  status: 'status change',
  create: 'create a task',
};

/** One server under test. Every method talks to the server through its own interface. */
export interface ServerAdapter {
  /** Short key used in file names and logs. */
  key: 'ours' | 'taskmaster' | 'shrimp';
  /** Name and version as the table shows them. */
  name: string;
  /** Name without version, for the ratio columns. */
  short: string;
  /** The tool (and the arguments that matter) each operation uses; undefined = no equivalent. */
  tools: Partial<Record<Operation | 'seed' | 'spawn', string>>;
  /** Installs (peers) or checks the build (ours); throws with the reason when unusable. */
  prepare(): Promise<void>;
  /** A fresh temporary project folder, set up through the server's own CLI where it needs one. */
  newProject(): Promise<string>;
  /** How to start one server process on `project`. */
  launch(project: string): Launch;
  /** Creates one task titled `title`; resolves only once the server acknowledged it. */
  create(s: Session, project: string, title: string): Promise<void>;
  /** Creates `count` tasks numbered from `from`, in the largest batches the server's tools take. */
  seed(s: Session, project: string, from: number, count: number): Promise<void>;
  /** Ids of the tasks the operations may act on (every task, or the ones a status change accepts), oldest first. */
  ids(s: Session, project: string): Promise<string[]>;
  /** Titles of every task (a title present twice is listed twice). */
  titles(s: Session, project: string): Promise<string[]>;
  /** Runs one operation on task `id` (ignored by `list`). Missing when the server has no equivalent. */
  run: Partial<Record<Exclude<Operation, 'create'>, (s: Session, project: string, id: string) => Promise<unknown>>>;
}

/** Title of the `i`-th seeded task (the same text for every server). */
export function seedTitle(i: number): string {
  return `Seed task ${i}: implement part ${i % 97} of the feature`;
}

/** Description of the `i`-th seeded task. */
export function seedDescription(i: number): string {
  return `Description of task ${i}. `.repeat(4).trim();
}

const created: string[] = [];
process.on('exit', () => {
  if (process.env.PEER_BENCH_KEEP) return;
  for (const dir of created) fs.rmSync(dir, { recursive: true, force: true });
});

/** A temporary folder removed at exit (kept when PEER_BENCH_KEEP is set, to inspect a store). */
export function tempFolder(prefix: string): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `peer-bench-${prefix}-`)));
  created.push(dir);
  return dir;
}

/** A temporary Git repository with one commit: every server gets the same kind of project. */
export function tempProject(prefix: string): string {
  const dir = tempFolder(prefix);
  const env = {
    ...process.env,
    GIT_AUTHOR_NAME: 'bench',
    GIT_AUTHOR_EMAIL: 'b@x',
    GIT_COMMITTER_NAME: 'bench',
    GIT_COMMITTER_EMAIL: 'b@x',
  };
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, env, stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  fs.writeFileSync(path.join(dir, 'README.md'), '# bench project\n');
  git('add', '-A');
  git('commit', '-qm', 'initial');
  return dir;
}

/** A HOME for the peers' processes, so nothing they write lands in the user's home folder. */
export const peerHome = (() => {
  let home: string | undefined;
  return () => (home ??= tempFolder('home'));
})();
