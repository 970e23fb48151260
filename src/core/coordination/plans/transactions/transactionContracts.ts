import { z } from 'zod';
import {
  correlationInputWithoutGraph,
  idempotencyKeyInput,
  idempotencyOutput,
  opIdOutput,
} from '../../../contracts/callOptions';
import {
  graphMutationOperation,
  graphMutationRecordOutput,
  GRAPH_OPERATIONS_MAX,
  planGraphOutput,
} from '../graphContracts';
import { jsonPatchOperationInput } from '../graphToolContracts';
import { TX_TTL_MAX_MS } from './graphTransactions';

/**
 * Contracts of tx_begin, tx_apply, tx_commit and tx_rollback: field names and shapes of the
 * public implementation (self-codex `src/tools/txTools.ts`), with what a commit on a graph that
 * moved says here (`merged`, and the conflict's places in the refusal).
 */

// A pattern rather than z.string().uuid(): JSON Schema's `format: uuid` is unknown to draft-07 validators.
const txId = z
  .string()
  .regex(
    /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/,
    'a transaction id from tx_begin',
  )
  .describe('Id of the transaction, from tx_begin');
const owner = z.string().trim().min(1).max(120);

export const txBeginInput = z.strictObject({
  graph_id: z
    .string()
    .min(1)
    .max(200)
    .describe(
      "Id of the stored plan graph (a workflow's plan is wf-<id>); a graph that does not exist yet starts empty",
    ),
  expected_version: z
    .number()
    .int()
    .nonnegative()
    .optional()
    .describe('Refuse to begin unless this is the committed version (E-TX-CONFLICT)'),
  owner: owner
    .optional()
    .describe(
      'Who works in the transaction; must be the lock holder when the graph is locked, and keeps other holders from graph_lock while open',
    ),
  note: z.string().trim().min(1).max(240).optional().describe('Why, kept with the committed version'),
  ttl_ms: z
    .number()
    .int()
    .positive()
    .max(TX_TTL_MAX_MS)
    .optional()
    .describe(
      'How long the transaction lives without use, in ms (default 5 minutes); each tx_apply gives it that long again',
    ),
  ...idempotencyKeyInput,
  ...correlationInputWithoutGraph,
});

const txFields = {
  tx_id: z.string().describe('Id of the transaction'),
  graph_id: z.string().describe('Id of the graph'),
  base_version: z.number().int().describe('Committed version the transaction began on'),
  owner: z.string().nullable().describe('Owner of the transaction'),
  note: z.string().nullable().describe('Note of the transaction'),
  expires_at: z.number().int().describe('When the transaction lapses unless used again (epoch ms)'),
};

export const txBeginOutput = z.strictObject({
  ...opIdOutput,
  ...txFields,
  started_at: z.number().int().describe('When the transaction began (epoch ms)'),
  graph: planGraphOutput.describe('The working copy: the committed graph at base_version'),
  ...idempotencyOutput,
});

export const txApplyInput = z.strictObject({
  tx_id: txId,
  operations: z
    .array(graphMutationOperation)
    .min(1)
    .max(GRAPH_OPERATIONS_MAX)
    .describe('Operations as graph_mutate takes them, applied in order to the working copy; all or none'),
  ...correlationInputWithoutGraph,
});

const violation = z.strictObject({
  code: z.string().describe('Error name of the violated invariant'),
  message: z.string().describe('What is wrong'),
  path: z.string().describe('JSON pointer of the offending part of the graph'),
  hint: z.string().optional().describe('How to fix it'),
  details: z.record(z.string(), z.unknown()).optional().describe('Structured details'),
});

export const txApplyOutput = z.strictObject({
  ...opIdOutput,
  ...txFields,
  preview_version: z.number().int().describe('The version a commit would give if the graph does not move meanwhile'),
  changed: z.boolean().describe('Whether these operations changed the working copy'),
  applied: z.array(graphMutationRecordOutput).describe('One record per operation, in order'),
  diff: z.array(jsonPatchOperationInput).describe('RFC 6902 patch from the working copy before this call to after it'),
  diff_summary: z
    .strictObject({
      nameChanged: z.boolean().describe('The name differs'),
      metadataChanged: z.boolean().describe('The metadata differs'),
      nodesChanged: z.boolean().describe('Nodes were added, removed or changed'),
      edgesChanged: z.boolean().describe('Edges were added, removed or changed'),
    })
    .describe('Which sections this call changed'),
  graph: planGraphOutput.describe('The working copy after the operations'),
  invariants: z
    .union([
      z.strictObject({ ok: z.literal(true).describe('All invariants hold') }),
      z.strictObject({ ok: z.literal(false).describe('Some invariant is broken'), violations: z.array(violation) }),
    ])
    .describe('Invariants of the working copy (always ok: operations that break one are refused)'),
});

export const txCommitInput = z.strictObject({ tx_id: txId, ...correlationInputWithoutGraph });

export const txCommitOutput = z.strictObject({
  ...opIdOutput,
  tx_id: z.string().describe('Id of the transaction, also the tx of sc://snapshots/<graph>/<tx>'),
  graph_id: z.string().describe('Id of the graph'),
  base_version: z.number().int().describe('Version the transaction began on'),
  version: z.number().int().describe('Committed version after the commit'),
  committed_at: z.number().int().describe('Commit time (epoch ms); the previous commit time when nothing changed'),
  changed: z.boolean().describe('Whether a new version was committed'),
  merged: z
    .boolean()
    .describe('True when the graph had moved since the transaction began and its changes commuted with those commits'),
  graph: planGraphOutput.describe('The committed graph'),
});

export const txRollbackInput = z.strictObject({ tx_id: txId, ...correlationInputWithoutGraph });

export const txRollbackOutput = z.strictObject({
  ...opIdOutput,
  tx_id: z.string().describe('Id of the transaction'),
  graph_id: z.string().describe('Id of the graph'),
  version: z.number().int().describe('Version the transaction began on'),
  rolled_back_at: z.number().int().describe('When it was rolled back (epoch ms)'),
  expired: z.boolean().describe('True when it had already lapsed; it is removed all the same'),
  snapshot: planGraphOutput.describe('The graph the transaction began on'),
});

export type TxBeginInput = z.infer<typeof txBeginInput>;
export type TxApplyInput = z.infer<typeof txApplyInput>;
export type TxCommitInput = z.infer<typeof txCommitInput>;
export type TxRollbackInput = z.infer<typeof txRollbackInput>;
