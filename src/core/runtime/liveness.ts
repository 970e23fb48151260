import type { Liveness, ProcessProbe, ProcessRecord } from '../ports/processes';

/**
 * Whether the process of a record is still the one running under its pid. Pure: the platform
 * adapter (src/processes/processIdentity.ts) reads the probe from `/proc/<pid>/stat` or `ps`,
 * this decides. A pid alone proves nothing: the kernel reuses pids, so the start time read when
 * the process was started must match the one read now.
 */
export function checkLiveness(record: Pick<ProcessRecord, 'startToken'>, probe: ProcessProbe | null): Liveness {
  if (!probe || probe.zombie) return 'gone';
  if (record.startToken === null) return 'unknown';
  return probe.startToken === record.startToken ? 'running' : 'reused';
}
