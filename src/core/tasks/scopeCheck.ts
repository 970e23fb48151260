import picomatch from 'picomatch';
import type { FileChanges } from '../ports/workspaceTruth';
import type { Verification, WriteScope } from './taskModel';

/**
 * Does a changed path fall inside one of the areas a task declared at start?
 *
 * An area is one of:
 *  - a glob (has * ? [ ] { }): matched against the whole path, e.g. `src/**\/auth*.ts`;
 *  - a path (has a /): a prefix on segment boundaries, e.g. `src/auth` matches
 *    `src/auth/x.ts` and `src/auth` but not `src/authoring.ts`;
 *  - a bare word: equal (ignoring case) to a whole path segment or to a file stem, e.g. `auth`
 *    matches `src/auth/x.ts`, `auth.ts`, `auth.test.ts`, but not `docs/authoring.md`.
 */
export function areaMatcher(area: string): (path: string) => boolean {
  const a = area.trim().replace(/\\/g, '/').replace(/^\.\//, '');
  if (/[*?[\]{}]/.test(a)) {
    const isMatch = picomatch(a, { dot: true });
    return (p) => isMatch(p);
  }
  if (a.includes('/')) {
    const prefix = a.replace(/\/+$/, '');
    return (p) => p === prefix || p.startsWith(`${prefix}/`);
  }
  const word = a.toLowerCase();
  return (p) => {
    const segments = p.toLowerCase().split('/');
    if (segments.includes(word)) return true;
    const file = segments[segments.length - 1];
    const lastDot = file.lastIndexOf('.');
    const firstDot = file.indexOf('.');
    return (lastDot > 0 && file.slice(0, lastDot) === word) || (firstDot > 0 && file.slice(0, firstDot) === word);
  };
}

/** Every path a change touches that scope checks should judge (a rename counts by its new path). */
export function changedPaths(files: FileChanges): string[] {
  return [...files.added, ...files.modified, ...files.deleted, ...files.renamed.map((r) => r.to)].sort();
}

/** The verification block of complete_task's output, in the tracking contract's words. */
export function verifyScope(areas: readonly string[], files: FileChanges): Verification {
  const cleaned = areas.map((a) => a.trim()).filter((a) => a.length > 0);
  if (cleaned.length === 0) return { scope_match: true, unexpected_files: [], warnings: [] };
  const matchers = cleaned.map(areaMatcher);
  const unexpected = changedPaths(files).filter((p) => !matchers.some((m) => m(p)));
  return {
    scope_match: unexpected.length === 0,
    unexpected_files: unexpected,
    warnings: unexpected.length
      ? [`⚠️ ${unexpected.length} file(s) modified outside declared scope (${cleaned.join(', ')})`]
      : [],
  };
}

/**
 * Adds the agents' write scopes to complete_task's verification: a changed file is expected
 * when at least one agent that worked on the task could write it (a `write` glob matches and
 * no `exclude` glob does). Without a recorded scope the verification is returned as it is.
 */
export function withWriteScope(
  verification: Verification,
  scopes: readonly WriteScope[] | null,
  files: FileChanges,
): Verification {
  if (!scopes || scopes.length === 0) return verification;
  const judges = scopes.map((s) => {
    const write = s.write.map(areaMatcher);
    const exclude = s.exclude.map(areaMatcher);
    return (p: string) => write.some((m) => m(p)) && !exclude.some((m) => m(p));
  });
  const outside = changedPaths(files).filter((p) => !judges.some((allowed) => allowed(p)));
  if (outside.length === 0) return verification;
  const who = scopes
    .map(
      (s) =>
        `${s.agent}: ${s.write.length ? s.write.join(', ') : 'read-only'}${s.exclude.length ? ` except ${s.exclude.join(', ')}` : ''}`,
    )
    .join('; ');
  return {
    scope_match: false,
    unexpected_files: [...new Set([...verification.unexpected_files, ...outside])].sort(),
    warnings: [
      ...verification.warnings,
      `⚠️ ${outside.length} file(s) modified outside the agents' write scope (${who})`,
    ],
  };
}
