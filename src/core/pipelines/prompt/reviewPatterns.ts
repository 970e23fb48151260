import { distance } from 'fastest-levenshtein';
import type { Severity } from '../engine/verdict';
import { severities } from '../engine/verdict';

/**
 * Past review findings merged into patterns: two findings are the same pattern when their
 * normalized texts differ by at most `threshold` of the longer one's length (Levenshtein).
 * Reviewers phrase the same problem slightly differently each time ("Missing error handling
 * in the parser" / "missing error-handling in parser"); counting them together is what makes
 * a recurring problem visible to the next pipeline's agents.
 */
export interface PatternInput {
  severity: Severity;
  description: string;
  /** Where it was seen (a pipeline workspace); kept once per source. */
  source?: string;
}

export interface ReviewPattern {
  /** The highest severity any merged finding had. */
  severity: Severity;
  /** The first wording seen. */
  description: string;
  count: number;
  sources: string[];
}

export interface MergeOptions {
  /** Largest distance / length ratio still merged (default 0.3). */
  threshold?: number;
}

/** Lower case, one space, no "Task 3:" prefix, no surrounding punctuation or markdown. */
export function normalizeFinding(text: string): string {
  return text
    .toLowerCase()
    .replace(/^\s*task\s+\d+\s*:\s*/, '')
    .replace(/[`*_]/g, '')
    .replace(/[-–—]/g, ' ')
    .replace(/\s+/g, ' ')
    .replace(/^[\s.,;:!?]+|[\s.,;:!?]+$/g, '');
}

export function similarity(a: string, b: string): number {
  const longest = Math.max(a.length, b.length);
  return longest === 0 ? 1 : 1 - distance(a, b) / longest;
}

/**
 * Merges findings in order (the first wording of a pattern is kept), then sorts patterns by
 * how often they occurred, then severity, then first appearance.
 */
export function mergeFindings(findings: readonly PatternInput[], options: MergeOptions = {}): ReviewPattern[] {
  const threshold = options.threshold ?? 0.3;
  const clusters: (ReviewPattern & { key: string; order: number })[] = [];
  for (const f of findings) {
    const key = normalizeFinding(f.description);
    if (!key) continue;
    const match = clusters.find((c) => {
      const longest = Math.max(c.key.length, key.length);
      // Cheap bound first: the distance is at least the length difference.
      if (Math.abs(c.key.length - key.length) > threshold * longest) return false;
      return distance(c.key, key) <= threshold * longest;
    });
    if (match) {
      match.count += 1;
      if (rank(f.severity) > rank(match.severity)) match.severity = f.severity;
      if (f.source && !match.sources.includes(f.source)) match.sources.push(f.source);
    } else {
      clusters.push({
        key,
        order: clusters.length,
        severity: f.severity,
        description: f.description.trim(),
        count: 1,
        sources: f.source ? [f.source] : [],
      });
    }
  }
  clusters.sort((a, b) => b.count - a.count || rank(b.severity) - rank(a.severity) || a.order - b.order);
  return clusters.map(({ severity, description, count, sources }) => ({ severity, description, count, sources }));
}

/** CRITICAL 3 … INFO 0. */
function rank(severity: Severity): number {
  return severities.length - 1 - severities.indexOf(severity);
}
