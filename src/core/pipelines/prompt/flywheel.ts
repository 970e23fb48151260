import * as fs from 'node:fs';
import { Bm25Index } from './bm25';
import type { ReviewPattern } from './reviewPatterns';
import { mergeFindings } from './reviewPatterns';
import type { SpecsIndex, SpecsIndexEntry } from '../files/specsIndex';
import { readSpecsIndex, specsIndexPath } from '../files/specsIndex';

/**
 * Layer 4 of the prompt (the pipeline contract's data flywheel): similar past pipelines ranked by BM25,
 * past review findings merged into patterns, and friction points of past retrospectives.
 * index.json is parsed and indexed once per change (by size and mtime), so asking for the
 * next action stays cheap with thousands of past pipelines.
 */
export interface SimilarPipeline {
  workspace: string;
  title: string;
  effort: string;
  status: string;
  revisions: number;
  score: number;
}

export interface FlywheelData {
  similar: SimilarPipeline[];
  patterns: ReviewPattern[];
  friction: ReviewPattern[];
}

/** Findings and friction lines of the most recent pipelines only: merging is quadratic. */
const RECENT_FINDINGS = 400;
const RECENT_FRICTION = 200;

interface Loaded {
  key: string;
  index: SpecsIndex;
  bm25: Bm25Index;
  byWorkspace: Map<string, SpecsIndexEntry>;
  patterns: ReviewPattern[];
  friction: ReviewPattern[];
}

export class Flywheel {
  private loaded: Loaded | undefined;

  constructor(private readonly root: string) {}

  /** Data for a pipeline whose request is `query`; the pipeline itself is never its own neighbour. */
  data(query: string, self: string, limit = 3): FlywheelData {
    const loaded = this.load();
    if (!loaded) return { similar: [], patterns: [], friction: [] };
    const similar = loaded.bm25
      .search(query, limit + 1)
      .filter((h) => h.id !== self)
      .slice(0, limit)
      .map((h) => {
        const e = loaded.byWorkspace.get(h.id) as SpecsIndexEntry;
        return {
          workspace: e.workspace,
          title: e.title,
          effort: e.effort,
          status: e.status,
          revisions: e.revisions,
          score: Math.round(h.score * 100) / 100,
        };
      });
    return { similar, patterns: loaded.patterns, friction: loaded.friction };
  }

  private load(): Loaded | undefined {
    let key: string;
    try {
      const stat = fs.statSync(specsIndexPath(this.root));
      key = `${stat.size}:${stat.mtimeMs}:${stat.ino}`;
    } catch {
      this.loaded = undefined;
      return undefined;
    }
    if (this.loaded?.key === key) return this.loaded;
    const index = readSpecsIndex(this.root);
    const entries = index.pipelines;
    const recent = [...entries].reverse();
    const findings = recent
      .flatMap((e) => e.findings.map((f) => ({ ...f, source: e.workspace })))
      .slice(0, RECENT_FINDINGS);
    const friction = recent
      .flatMap((e) => e.friction.map((line) => ({ severity: 'INFO' as const, description: line, source: e.workspace })))
      .slice(0, RECENT_FRICTION);
    this.loaded = {
      key,
      index,
      bm25: new Bm25Index(
        entries.map((e) => ({ id: e.workspace, text: `${e.spec_name.replace(/-/g, ' ')} ${e.request}` })),
      ),
      byWorkspace: new Map(entries.map((e) => [e.workspace, e])),
      patterns: mergeFindings(findings),
      friction: mergeFindings(friction),
    };
    return this.loaded;
  }
}
