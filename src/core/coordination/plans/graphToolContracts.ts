import { z } from 'zod';
import {
  correlationInputWithoutGraph,
  idempotencyKeyInput,
  idempotencyOutput,
  opIdInput,
  opIdOutput,
} from '../../contracts/callOptions';
import { graphDescriptorInput, planGraphOutput } from './graphContracts';
import { LOCK_TTL_MAX_MS } from './graphLocks';

/**
 * Contracts of `graph_diff`, `graph_patch`, `graph_lock` and `graph_unlock` (field names and
 * bounds of self-codex `src/tools/graphDiffTools.ts` and `src/tools/graphLockTools.ts`).
 */

const graphId = z.string().min(1).max(200).describe('Id of the stored graph');

/** Which graph a side of `graph_diff` is. */
export const graphSelectorInput = z.union([
  z.strictObject({ latest: z.literal(true).describe('The committed version') }),
  z.strictObject({ version: z.number().int().nonnegative().describe('A committed version kept in the history') }),
  z.strictObject({ graph: graphDescriptorInput.describe('A graph given inline') }),
]);

export const graphDiffInput = z.strictObject({
  graph_id: graphId,
  from: graphSelectorInput.describe('Base side: { latest: true }, { version: N } or { graph: {...} }'),
  to: graphSelectorInput.describe('Target side: { latest: true }, { version: N } or { graph: {...} }'),
  ...opIdInput,
});

const pointer = z.string().max(2000);

/** One RFC 6902 operation; paths address nodes and edges by id (`/nodes/<id>/attributes/<key>`). */
export const jsonPatchOperationInput = z.discriminatedUnion('op', [
  z.strictObject({
    op: z.enum(['add', 'replace', 'test']).describe('Operation name'),
    path: pointer.describe('JSON pointer of the target, e.g. /nodes/build/attributes/status'),
    value: z.unknown().describe('Value to add, put or compare'),
  }),
  z.strictObject({
    op: z.literal('remove').describe('Operation name'),
    path: pointer.describe('JSON pointer of the value to remove'),
  }),
  z.strictObject({
    op: z.enum(['move', 'copy']).describe('Operation name'),
    from: pointer.describe('JSON pointer of the source value'),
    path: pointer.describe('JSON pointer of the destination'),
  }),
]);

const selectorSummary = z.strictObject({
  source: z.enum(['latest', 'version', 'descriptor']).describe('How the side was selected'),
  version: z.number().int().nullable().describe('Version of that side, null for an inline graph without one'),
});

export const graphDiffOutput = z.strictObject({
  ...opIdOutput,
  graph_id: z.string().describe('Id of the graph'),
  from: selectorSummary.describe('The base side'),
  to: selectorSummary.describe('The target side'),
  changed: z.boolean().describe('False when both sides have the same content'),
  operations: z
    .array(jsonPatchOperationInput)
    .describe('RFC 6902 patch turning the base into the target; graph_patch accepts it'),
  summary: z
    .strictObject({
      nameChanged: z.boolean().describe('The name differs'),
      metadataChanged: z.boolean().describe('The metadata differs'),
      nodesChanged: z.boolean().describe('Nodes were added, removed or changed'),
      edgesChanged: z.boolean().describe('Edges were added, removed or changed'),
    })
    .describe('Which sections of the graph differ'),
});

const owner = z.string().trim().min(1).max(120);

export const graphPatchInput = z.strictObject({
  graph_id: graphId,
  patch: z
    .array(jsonPatchOperationInput)
    .min(1)
    .max(1000)
    .describe('RFC 6902 operations, applied in order, all or nothing'),
  base_version: z
    .number()
    .int()
    .nonnegative()
    .optional()
    .describe('Refuse the patch unless this is the committed version'),
  enforce_invariants: z.boolean().default(true).describe('Refuse a result with a cycle (structure is always checked)'),
  owner: owner.optional().describe('Who patches; must be the lock holder when the graph is locked'),
  note: z.string().trim().min(1).max(240).optional().describe('Why the patch is made, kept with the version'),
  ...idempotencyKeyInput,
  ...correlationInputWithoutGraph,
});

const violation = z.strictObject({
  code: z.string().describe('Error name of the violated invariant'),
  message: z.string().describe('What is wrong'),
  path: z.string().describe('JSON pointer of the offending part of the graph'),
  hint: z.string().optional().describe('How to fix it'),
  details: z.record(z.string(), z.unknown()).optional().describe('Structured details, e.g. the cycle'),
});

export const graphPatchOutput = z.strictObject({
  ...opIdOutput,
  graph_id: z.string().describe('Id of the graph'),
  base_version: z.number().int().describe('Version the patch was applied to'),
  committed_version: z.number().int().describe('Version after the call; equals base_version when nothing changed'),
  changed: z.boolean().describe('Whether the version moved'),
  operations_applied: z.number().int().describe('Number of patch operations applied'),
  invariants: z
    .union([
      z.strictObject({ ok: z.literal(true).describe('All invariants hold') }),
      z.strictObject({
        ok: z.literal(false).describe('Some invariant is broken'),
        violations: z.array(violation).describe('Every violation'),
      }),
    ])
    .nullable()
    .describe('Invariant report, null when invariants were not enforced'),
  graph: planGraphOutput.describe('The committed graph'),
  ...idempotencyOutput,
});

export const graphLockInput = z.strictObject({
  graph_id: graphId,
  holder: owner.describe('Who takes the lock; the same holder refreshes it'),
  ttl_ms: z
    .number()
    .int()
    .positive()
    .max(LOCK_TTL_MAX_MS)
    .optional()
    .describe('Lifetime of the lock in milliseconds; a refresh without it keeps the current lifetime'),
  ...correlationInputWithoutGraph,
});

export const graphLockOutput = z.strictObject({
  ...opIdOutput,
  lock_id: z.string().describe('Id of the lock, the same across refreshes; graph_unlock takes it'),
  graph_id: z.string().describe('Id of the locked graph'),
  holder: z.string().describe('Holder of the lock'),
  acquired_at: z.number().int().describe('When the lock was first taken (epoch ms)'),
  refreshed_at: z.number().int().describe('When the lock was last taken or refreshed (epoch ms)'),
  expires_at: z.number().int().nullable().describe('When the lock lapses (epoch ms)'),
});

export const graphUnlockInput = z.strictObject({
  lock_id: z.string().min(1).max(200).describe('Id returned by graph_lock'),
  ...correlationInputWithoutGraph,
});

export const graphUnlockOutput = z.strictObject({
  ...opIdOutput,
  lock_id: z.string().describe('Id of the released lock'),
  graph_id: z.string().describe('Id of the graph it protected'),
  holder: z.string().describe('Holder it belonged to'),
  released_at: z.number().int().describe('When it was released (epoch ms)'),
  expired: z.boolean().describe('True when the lock had already lapsed; it is removed all the same'),
  expires_at: z.number().int().nullable().describe('When it lapsed or would have lapsed (epoch ms)'),
});

export type GraphSelectorInput = z.infer<typeof graphSelectorInput>;
export type GraphDiffInput = z.infer<typeof graphDiffInput>;
export type GraphDiffOutput = z.infer<typeof graphDiffOutput>;
export type GraphPatchInput = z.infer<typeof graphPatchInput>;
export type GraphPatchOutput = z.infer<typeof graphPatchOutput>;
export type GraphLockInput = z.infer<typeof graphLockInput>;
export type GraphLockOutput = z.infer<typeof graphLockOutput>;
export type GraphUnlockInput = z.infer<typeof graphUnlockInput>;
export type GraphUnlockOutput = z.infer<typeof graphUnlockOutput>;
