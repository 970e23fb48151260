import { taskKey } from '../ids';
import { openReviewRequests } from '../tasks/taskReviews';
import type { TaskHold, TaskWaiting } from '../tasks/taskModel';

/**
 * The Board's read model, pure: which column each task (and each pipeline waiting for a person)
 * goes in. The SQL that feeds it is in boardQueries.ts.
 */
export const boardColumns = ['open', 'ready', 'in_progress', 'needs_person', 'done', 'failed'] as const;
export type BoardColumnId = (typeof boardColumns)[number];

export interface BoardCard {
  /** `task-12`, or `pipeline-3` for a pipeline waiting at a checkpoint or human gate. */
  id: string;
  kind: 'task' | 'checkpoint' | 'human_gate';
  column: BoardColumnId;
  taskId: number | null;
  title: string;
  /** The task's status (`cancelled` shows in the failed column), or the pipeline's. */
  status: string;
  result: string | null;
  /** The assignee, else the agent of the task's latest session. */
  agent: string | null;
  /** The client that agent runs in (its latest session's, else its definition's). */
  client: string | null;
  /** Cost in USD when a run reported one; null when unknown (the card leaves it blank). */
  cost: number | null;
  lastMilestone: string | null;
  progress: number | null;
  workflow: string | null;
  /** Why a person is needed (the needs_person column), else null. */
  reason: string | null;
  /** For a checkpoint or human gate: the pipeline folder (`.specs/…`) the card opens. */
  pipeline: string | null;
  /** For a checkpoint or human gate: the raw name it waits at (`checkpoint-a`, `task-2`), for the faces to name. */
  gate: string | null;
  /** Keys of the unfinished tasks an open task waits for. */
  blockedBy: string[];
  /** Handoffs of the task not accepted yet (oldest first): who handed it over, to whom (null: any agent). */
  handoffs: BoardHandoff[];
  /**
   * Other tasks someone works on whose declared scope may touch the same files as this one: the
   * start gate's rule (startGates.ts), so a `**` scope (the built-in agents') warns of nothing.
   */
  overlaps: BoardOverlap[];
  /** A person stopped the task's agent and holds it (Resume lets the runner launch it again). */
  hold: TaskHold | null;
  /** Why the runner does not start it now, as it last said (dependencies, conflict, coolingDown…). */
  waiting: TaskWaiting | null;
  /**
   * What the card must say, most pressing first: why a person is needed, a hold, open
   * dependencies of a task already in progress, the runner's reason, then overlaps. A card that
   * shows one line shows the first.
   */
  notices: BoardNotice[];
  updatedAt: string;
}

/** One line a card says beyond its column. */
export interface BoardNotice {
  kind: 'needs_person' | 'held' | 'open_dependencies' | 'waiting' | 'overlap';
  text: string;
}

/** A pending handoff as a card shows it. */
export interface BoardHandoff {
  /** `handoff-4` */
  id: string;
  from: string;
  to: string | null;
}

/** Another running task this one may collide with, and the patterns through which. */
export interface BoardOverlap {
  /** `task-7` */
  task: string;
  title: string | null;
  agent: string | null;
  /** The overlapping paths or patterns of both tasks (each once, this task's first). */
  paths: string[];
}

export interface BoardSnapshot {
  cards: BoardCard[];
  /** Who a card can be assigned to: defined agents and every assignee seen, by name. */
  agents: { name: string; client: string | null }[];
}

/** A task as the board reads it. */
export interface BoardTaskRow {
  id: number;
  title: string;
  status: string;
  result: string | null;
  assignee: string | null;
  lastMilestone: string | null;
  progress: number | null;
  workflow: string | null;
  /** complete_task's outcome said a person must review. */
  manualReview: { reason: string | null } | null;
  /** The latest issue of the task asking for a person's review (its id and description). */
  reviewIssue: { id: number; description: string } | null;
  session: { agent: string; client: string | null } | null;
  cost: number | null;
  handoffs: BoardHandoff[];
  /** A person marked the task's review requests reviewed (the ids and completion it covered). */
  review: { issueThrough: number; completedAt: string | null } | null;
  completedAt: string | null;
  updatedAt: string;
  hold?: TaskHold | null;
  waiting?: TaskWaiting | null;
}

export interface BoardWaitingPipeline {
  id: number;
  workspace: string;
  title: string;
  workflow: string | null;
  kind: 'checkpoint' | 'human_gate';
  /** The checkpoint or gate (`checkpoint-a`, `task-2`). */
  name: string;
  updatedAt: string;
}

const closed = new Set(['done', 'failed', 'cancelled']);

/**
 * The first pending handoff of the task that no agent will pick up, so it waits for a person:
 * one addressed to nobody (a person decides who continues) or to a name that is not an agent of
 * the ledger (a person). A handoff to an agent does not: that agent takes it up
 * (get_pending_handoffs, the runner).
 */
export function handoffForPerson(
  handoffs: readonly BoardHandoff[],
  isAgent: (name: string) => boolean,
): BoardHandoff | null {
  return handoffs.find((h) => h.to === null || !isAgent(h.to)) ?? null;
}

/** The column of one task, with the reason a person is needed and what blocks it. */
export function taskColumn(
  task: BoardTaskRow,
  dependencies: readonly number[],
  statusOf: (id: number) => string | undefined,
  isAgent: (name: string) => boolean = () => true,
): Pick<BoardCard, 'column' | 'reason' | 'blockedBy'> {
  const { manualReview, reviewIssue } = openReviewRequests(task);
  if (manualReview && task.status === 'done')
    return { column: 'needs_person', reason: manualReview.reason ?? 'review requested', blockedBy: [] };
  if (reviewIssue && !closed.has(task.status))
    return { column: 'needs_person', reason: `review requested: ${reviewIssue.description}`, blockedBy: [] };
  const handoff = closed.has(task.status) ? null : handoffForPerson(task.handoffs, isAgent);
  if (handoff) {
    const reason =
      handoff.to === null
        ? `${handoff.id} from ${handoff.from} names no agent: choose who continues`
        : `${handoff.id} from ${handoff.from} waits for ${handoff.to}`;
    return { column: 'needs_person', reason, blockedBy: [] };
  }
  switch (task.status) {
    case 'open': {
      const blockedBy = dependencies.filter((d) => statusOf(d) !== 'done').map(taskKey);
      return { column: blockedBy.length ? 'open' : 'ready', reason: null, blockedBy };
    }
    case 'in_progress': {
      // Started before its dependencies were done (forced, or an edge added later): the card says so.
      const blockedBy = dependencies.filter((d) => statusOf(d) !== 'done').map(taskKey);
      return { column: 'in_progress', reason: null, blockedBy };
    }
    case 'done':
      return { column: 'done', reason: null, blockedBy: [] };
    default:
      return { column: 'failed', reason: null, blockedBy: [] };
  }
}

/**
 * Every card: tasks, then the pipelines waiting for a person; most recently updated first.
 * `agents`: the ledger's agents, whose handoffs do not need a person (every name when absent).
 */
export function boardCards(
  tasks: readonly BoardTaskRow[],
  dependencies: ReadonlyMap<number, readonly number[]>,
  waiting: readonly BoardWaitingPipeline[],
  agentClients: ReadonlyMap<string, string | null>,
  overlaps: ReadonlyMap<number, BoardOverlap[]> = new Map(),
  agents?: ReadonlySet<string>,
): BoardCard[] {
  const isAgent = (name: string) => agents === undefined || agents.has(name);
  const status = new Map(tasks.map((t) => [t.id, t.status]));
  const cards = tasks.map((t): BoardCard => {
    const agent = t.assignee ?? t.session?.agent ?? null;
    const client =
      t.session && t.session.agent === agent ? t.session.client : agent ? (agentClients.get(agent) ?? null) : null;
    const column = taskColumn(t, dependencies.get(t.id) ?? [], (id) => status.get(id), isAgent);
    const open = !closed.has(t.status);
    const hold = open ? (t.hold ?? null) : null;
    const waiting = open && !hold ? (t.waiting ?? null) : null;
    const cardOverlaps = overlaps.get(t.id) ?? [];
    return {
      id: taskKey(t.id),
      kind: 'task',
      ...column,
      hold,
      waiting,
      notices: cardNotices(column, t.status, hold, waiting, cardOverlaps),
      taskId: t.id,
      title: t.title,
      status: t.status,
      result: t.result,
      agent,
      client,
      cost: t.cost,
      lastMilestone: t.lastMilestone,
      progress: t.progress,
      workflow: t.workflow,
      pipeline: null,
      gate: null,
      handoffs: t.handoffs,
      overlaps: cardOverlaps,
      updatedAt: t.updatedAt,
    };
  });
  for (const p of waiting) {
    cards.push({
      id: `pipeline-${p.id}`,
      kind: p.kind,
      column: 'needs_person',
      taskId: null,
      title: p.title,
      status: 'awaiting_human',
      result: null,
      agent: null,
      client: null,
      cost: null,
      lastMilestone: null,
      progress: null,
      workflow: p.workflow,
      reason: `${p.kind === 'checkpoint' ? 'checkpoint' : 'human gate'} ${p.name} waits for your decision`,
      pipeline: p.workspace,
      gate: p.name,
      blockedBy: [],
      handoffs: [],
      overlaps: [],
      hold: null,
      waiting: null,
      notices: [
        {
          kind: 'needs_person',
          text: `${p.kind === 'checkpoint' ? 'checkpoint' : 'human gate'} ${p.name} waits for your decision`,
        },
      ],
      updatedAt: p.updatedAt,
    });
  }
  return cards.sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : a.id < b.id ? 1 : -1));
}

/** A card's notices, most pressing first (see `BoardCard.notices`). */
function cardNotices(
  column: Pick<BoardCard, 'column' | 'reason' | 'blockedBy'>,
  status: string,
  hold: TaskHold | null,
  waiting: TaskWaiting | null,
  overlaps: readonly BoardOverlap[],
): BoardNotice[] {
  const out: BoardNotice[] = [];
  if (column.column === 'needs_person' && column.reason) out.push({ kind: 'needs_person', text: column.reason });
  if (hold) out.push({ kind: 'held', text: `stopped by ${hold.by}: held until resumed` });
  if (status === 'in_progress' && column.blockedBy.length)
    out.push({ kind: 'open_dependencies', text: `in progress, but waits for ${column.blockedBy.join(', ')}` });
  if (waiting) out.push({ kind: 'waiting', text: waiting.detail });
  for (const o of overlaps)
    out.push({
      kind: 'overlap',
      text: `may write where ${o.task}${o.agent ? ` (${o.agent})` : ''} writes: ${o.paths.join(', ')}`,
    });
  return out;
}
