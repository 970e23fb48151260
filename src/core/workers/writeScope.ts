import type { FileChanges } from '../ports';
import type { Verification, WriteScope } from '../model';
import { areaMatcher, changedPaths } from '../tracking/scope';

/**
 * Adds the agents' write scopes to complete_task's verification: a changed file is expected
 * when at least one agent that worked on the task could write it (a `write` glob matches and
 * no `exclude` glob does). Without a recorded scope the verification is returned as it is.
 */
export function withWriteScope(verification: Verification, scopes: readonly WriteScope[] | null, files: FileChanges): Verification {
  if (!scopes || scopes.length === 0) return verification;
  const judges = scopes.map((s) => {
    const write = s.write.map(areaMatcher);
    const exclude = s.exclude.map(areaMatcher);
    return (p: string) => write.some((m) => m(p)) && !exclude.some((m) => m(p));
  });
  const outside = changedPaths(files).filter((p) => !judges.some((allowed) => allowed(p)));
  if (outside.length === 0) return verification;
  const who = scopes.map((s) => `${s.agent}: ${s.write.length ? s.write.join(', ') : 'read-only'}${s.exclude.length ? ` except ${s.exclude.join(', ')}` : ''}`).join('; ');
  return {
    scope_match: false,
    unexpected_files: [...new Set([...verification.unexpected_files, ...outside])].sort(),
    warnings: [...verification.warnings, `⚠️ ${outside.length} file(s) modified outside the agents' write scope (${who})`],
  };
}
