import type { LedgerEngine } from '../ports/store';
import type { Disposable, Event } from '../emitter';
import { Emitter } from '../emitter';
import type { Clock } from '../time';
import type { LedgerQueries } from '../tasks/ledgerQueries';
import type { TrackingService } from '../tasks/trackingService';
import { eventsSince, lastEventSeq } from '../events/eventLog';
import type { NextActionResponse } from './engine/actions';
import { Flywheel } from './prompt/flywheel';
import { PipelineInitializer } from './pipelineInit';
import { PipelineLedger } from './pipelineLedger';
import type { PipelineDetail, PipelineSummary } from './pipelineQueries';
import { PipelineQueries } from './pipelineQueries';
import type { PipelineFilter } from './pipelineRepo';
import type {
  PipelineInitInput,
  PipelineInitResult,
  PipelineInitWithContextInput,
  PipelineInitWithContextResult,
  PipelineNextActionInput,
  PipelineReportResultInput,
  ReportResult,
} from './pipelineContracts';
import { PipelineRunner } from './pipelineRunner';
import type { DecisionRecord } from './engine/pipelineState';
import { PipelineStateStore } from './pipelineStateStore';
import type { RepoProfile } from './prompt/repoProfile';
import { computeRepoProfile } from './prompt/repoProfile';
import { PipelineResources } from './files/flowFiles';

export interface PipelineServiceOptions {
  /** The repository (workspace folder) whose `.specs/` holds the pipelines. */
  root: string;
  /** The shipped flow.yaml and agents/ (see findDefaultsDir). */
  defaultsDir: string;
  /** Let the agent answer checkpoints with `user_response` (mcp serve --allow-agent-checkpoints). */
  allowAgentCheckpoints: boolean;
  /** How long a computed repository profile is reused (default 60 s). */
  profileTtlMs?: number;
}

/** What a human decides at a checkpoint or human gate, from the CLI or the editor. */
export interface HumanDecision {
  /** `approve` / `reject`, or any option the waiting action lists (e.g. `skip` at a human gate). */
  decision: string;
  comment?: string | null;
  /** Who decided (a user name). */
  by: string;
  /** 'cli' or 'editor'. */
  via: string;
  /** The checkpoint the person saw; the decision is refused if another one waits by now. */
  checkpoint?: string | null;
}

export interface PipelineChange {
  /** Pipeline workspaces (`.specs/<name>`) that changed. */
  workspaces: string[];
  /** Event kinds seen, e.g. 'pipeline.waiting', 'pipeline.decided', 'pipeline.completed'. */
  kinds: string[];
}

/**
 * The pipeline engine as one service: the four MCP tools, the CLI and the editor's
 * Pipelines view all call this. See PipelineRunner for the control flow and PipelineQueries
 * for the read side.
 */
export class PipelineService {
  readonly resources: PipelineResources;
  readonly queries: PipelineQueries;
  private readonly initializer: PipelineInitializer;
  private readonly runner: PipelineRunner;
  private profileCache: { at: number; value: RepoProfile | null } | undefined;
  private readonly _onDidChange = new Emitter<PipelineChange>();
  private watching: { seq: Promise<number>; listener: Disposable } | undefined;

  constructor(
    private readonly db: LedgerEngine,
    tracking: TrackingService,
    ledgerQueries: LedgerQueries,
    private readonly clock: Clock,
    private readonly options: PipelineServiceOptions,
  ) {
    this.resources = new PipelineResources(options.root, options.defaultsDir);
    const states = new PipelineStateStore(db, clock, options.root);
    this.queries = new PipelineQueries(db, options.root, this.resources);
    this.initializer = new PipelineInitializer(options.root, this.resources, states, () => clock.now());
    const ledger = new PipelineLedger(tracking, ledgerQueries, states);
    this.runner = new PipelineRunner(
      options.root,
      this.resources,
      states,
      ledger,
      new Flywheel(options.root),
      () => this.profile(),
      {
        allowAgentCheckpoints: options.allowAgentCheckpoints,
      },
    );
  }

  get allowsAgentCheckpoints(): boolean {
    return this.options.allowAgentCheckpoints;
  }

  /** Fires when any process changed a pipeline (its events reached this process's store). */
  readonly onDidChange: Event<PipelineChange> = (listener) => {
    this.watch();
    return this._onDidChange.event(listener);
  };

  init(input: PipelineInitInput): PipelineInitResult {
    return this.initializer.init(input);
  }

  initWithContext(input: PipelineInitWithContextInput): Promise<PipelineInitWithContextResult> {
    return this.initializer.initWithContext(input);
  }

  nextAction(input: PipelineNextActionInput): Promise<NextActionResponse> {
    return this.runner.nextAction(input);
  }

  reportResult(input: PipelineReportResultInput): Promise<ReportResult> {
    return this.runner.reportResult(input);
  }

  /** Approve / reject (with a comment) the checkpoint or human gate a pipeline waits at. */
  async decide(workspace: string, d: HumanDecision): Promise<{ decision: DecisionRecord; pipeline: PipelineDetail }> {
    const result = await this.runner.decide(workspace, {
      option: d.decision,
      comment: d.comment ?? null,
      decidedBy: d.by,
      via: d.via,
      expected: d.checkpoint ?? null,
    });
    return { decision: result.decision, pipeline: await this.queries.detail(result.state.workspace) };
  }

  list(filter: PipelineFilter = {}): Promise<{ pipelines: PipelineSummary[]; total: number }> {
    return this.queries.list(filter);
  }

  detail(workspace: string): Promise<PipelineDetail> {
    return this.queries.detail(workspace);
  }

  dispose(): void {
    this.watching?.listener.dispose();
    this._onDidChange.dispose();
  }

  private profile(): RepoProfile | null {
    const now = this.clock.now().getTime();
    if (!this.profileCache || now - this.profileCache.at > (this.options.profileTtlMs ?? 60_000)) {
      const p = computeRepoProfile(this.options.root);
      this.profileCache = { at: now, value: p.languages.length || p.build || p.test ? p : null };
    }
    return this.profileCache.value;
  }

  private watch(): void {
    if (this.watching) return;
    // The cursor starts at the events that exist now; reads run one after another (a chain), so
    // no event is seen twice or skipped however fast changes come.
    const watching: { seq: Promise<number>; listener: Disposable } = {
      seq: this.db.read(lastEventSeq).catch(() => 0),
      listener: { dispose: () => undefined },
    };
    watching.listener = this.db.onDidChange(() => {
      if (this.watching !== watching) return;
      watching.seq = watching.seq.then((seq) => this.catchUp(seq).catch(() => seq));
    });
    this.watching = watching;
  }

  private async catchUp(seq: number): Promise<number> {
    const events = await this.db.read((db) => eventsSince(db, seq, 10_000));
    if (events.length === 0) return seq;
    const mine = events.filter((e) => e.kind.startsWith('pipeline.'));
    if (mine.length) {
      const workspaces = [
        ...new Set(mine.map((e) => String((e.payload as { workspace?: string }).workspace ?? '')).filter(Boolean)),
      ];
      this._onDidChange.fire({ workspaces, kinds: [...new Set(mine.map((e) => e.kind))] });
    }
    return events[events.length - 1].seq;
  }
}
