import type { ProcessLimits } from '../../ports/processes';
import type { ChildLimits, ChildLimitsInput } from './childContracts';

/**
 * The limits a child runs with. Wall clock, output size and silence are enforced by the process
 * supervisor (SIGTERM to the child's process group, SIGKILL after a grace period); `messages` is
 * enforced by `child_send`. CPU, memory and tokens are written in the manifest for the child to
 * honour, as the public implementation does: the server does not measure them (a cgroup or
 * `prlimit` would need privileges or a platform the server cannot assume).
 */

/** A child without a wall-clock limit would outlive anyone watching it. */
export const DEFAULT_WALLCLOCK_MS = 3_600_000;
/** 16 MiB of output: far more than an agent reads, small enough for any disk. */
export const DEFAULT_MAX_OUTPUT_BYTES = 16 * 1024 * 1024;
/** Children running at once in a workspace, across every server process (the public `maxChildren`). */
export const MAX_RUNNING_CHILDREN = 16;

/** `base` (or the defaults) with the fields `change` gives replaced. */
export function effectiveLimits(change: ChildLimitsInput | undefined, base?: ChildLimits): ChildLimits {
  const from: ChildLimits = base ?? {
    wallclock_ms: DEFAULT_WALLCLOCK_MS,
    max_output_bytes: DEFAULT_MAX_OUTPUT_BYTES,
    idle_ms: null,
    messages: null,
    cpu_percent: null,
    memory_mb: null,
    tokens: null,
  };
  const c = change ?? {};
  return {
    wallclock_ms: c.wallclock_ms ?? from.wallclock_ms,
    max_output_bytes: c.max_output_bytes ?? from.max_output_bytes,
    idle_ms: c.idle_ms ?? from.idle_ms,
    messages: c.messages ?? from.messages,
    cpu_percent: c.cpu_percent ?? from.cpu_percent,
    memory_mb: c.memory_mb ?? from.memory_mb,
    tokens: c.tokens ?? from.tokens,
  };
}

/** What the supervisor enforces. */
export function processLimitsOf(limits: ChildLimits): ProcessLimits {
  return {
    wallClockMs: limits.wallclock_ms,
    maxOutputBytes: limits.max_output_bytes,
    ...(limits.idle_ms === null ? {} : { idleMs: limits.idle_ms }),
  };
}

/** True when a change touches a limit only the supervisor running the child can apply. */
export function changesLiveLimits(change: ChildLimitsInput): boolean {
  return change.wallclock_ms !== undefined || change.max_output_bytes !== undefined || change.idle_ms !== undefined;
}
