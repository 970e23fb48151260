/**
 * Small text formatters used by both the extension host (tree, status bar) and the webviews, so
 * a duration reads the same everywhere. Plain functions, no imports.
 */

/** `42s`, `3m 05s`, `2h 07m`. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${String(s % 60).padStart(2, '0')}s`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h}h ${String(m % 60).padStart(2, '0')}m`;
  return `${Math.floor(h / 24)}d ${h % 24}h`;
}

/** `42s`, `3m05s`, `2h07m`: the compact form for terminal tables and summaries. */
export function formatDurationCompact(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

/** Seconds from `startIso` to `now` (a running task's elapsed time). */
export function elapsedSeconds(startIso: string, now: number = Date.now()): number {
  return Math.max(0, Math.round((now - Date.parse(startIso)) / 1000));
}

/** `just now`, `5 min ago`, `3 h ago`, `2 d ago`. */
export function formatAge(iso: string, now: number = Date.now()): string {
  const s = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (s < 45) return 'just now';
  if (s < 3600) return `${Math.max(1, Math.round(s / 60))} min ago`;
  if (s < 86_400) return `${Math.round(s / 3600)} h ago`;
  return `${Math.round(s / 86_400)} d ago`;
}

/** `1 decision`, `3 decisions`, `0 entries`: the one way a count is written (CLI, report, views, webviews). */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}

/** Cuts text to `max` characters on a word boundary, with an ellipsis. */
export function truncate(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${space > max * 0.6 ? cut.slice(0, space) : cut}…`;
}

/** `850 tokens`, `12.3k tokens`, `1.2M tokens` (pipeline metrics). */
export function formatTokens(tokens: number): string {
  if (tokens < 1000) return `${tokens} tokens`;
  if (tokens < 1_000_000) return `${(tokens / 1000).toFixed(tokens < 10_000 ? 1 : 0)}k tokens`;
  return `${(tokens / 1_000_000).toFixed(1)}M tokens`;
}

/** `512 B`, `1.5 KB`, `1.2 MB` (disk freed by a worktree clean-up). */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = n / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

/** `$0.0421`, `$1.23`, `$0` — dollars as agent clients report them (four decimals under a dollar). */
export function formatUsd(usd: number): string {
  if (usd === 0) return '$0';
  if (Math.abs(usd) < 1) return `$${usd.toFixed(4).replace(/0+$/, '').replace(/\.$/, '')}`;
  return `$${usd.toFixed(2)}`;
}

/**
 * One line for a cost roll-up (core/costs): `$0.0521 · 2 runs · 1.6k tokens in, 390 tokens out`,
 * with `1 running` and `1 run without a reported cost` when they apply. Structural, so the
 * webviews can use it without importing core/costs.
 */
export function formatCostSummary(c: {
  runs: number;
  running: number;
  costUsd: number;
  unpricedRuns: number;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
}): string {
  if (c.runs === 0) return 'no runs';
  const parts = [formatUsd(c.costUsd), plural(c.runs, 'run')];
  if (c.inputTokens || c.outputTokens)
    parts.push(
      `${formatTokens(c.inputTokens)} in, ${formatTokens(c.outputTokens)} out${c.cacheReadTokens ? `, ${formatTokens(c.cacheReadTokens)} from cache` : ''}`,
    );
  if (c.running) parts.push(`${c.running} running`);
  if (c.unpricedRuns) parts.push(`${plural(c.unpricedRuns, 'run')} without a reported cost`);
  return parts.join(' · ');
}
