import picomatch from 'picomatch';
import type { FileChanges } from '../ports';
import type { Verification } from '../model';

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

/** The verification block of complete_task's output, in seed 000's words. */
export function verifyScope(areas: readonly string[], files: FileChanges): Verification {
  const cleaned = areas.map((a) => a.trim()).filter((a) => a.length > 0);
  if (cleaned.length === 0) return { scope_match: true, unexpected_files: [], warnings: [] };
  const matchers = cleaned.map(areaMatcher);
  const unexpected = changedPaths(files).filter((p) => !matchers.some((m) => m(p)));
  return {
    scope_match: unexpected.length === 0,
    unexpected_files: unexpected,
    warnings: unexpected.length ? [`⚠️ ${unexpected.length} file(s) modified outside declared scope (${cleaned.join(', ')})`] : [],
  };
}
