import { z } from 'zod';

/**
 * Pieces every orchestrator contract shares: correlation ids, the idempotency key and its
 * replay envelope, and the bounded wait of calls that wait for something to happen.
 */

/**
 * Longest wait a call accepts. Claude Code gives up on a tool call after 60 s and other
 * clients' defaults are the same, so a wait must end well before that.
 */
export const WAIT_MS_MAX = 50_000;

/**
 * Wait of a call that names none. A call returns at once when something is already there,
 * so waiting by default costs nothing to a busy stream and spares an idle agent a poll loop;
 * 25 s leaves room for slow transports under every client's 60 s limit.
 */
export const WAIT_MS_DEFAULT = 25_000;

/** A `wait_ms` input: whole milliseconds from 0 to {@link WAIT_MS_MAX}, its default, and what the call waits for. */
export function waitMs(defaultMs: number, description: string) {
  return z.number().int().min(0).max(WAIT_MS_MAX).default(defaultMs).describe(description);
}

/** `wait_ms` input of the calls that wait (`resources_watch`, `events_subscribe`, `bb_watch`). */
export const waitMsInput = waitMs(
  WAIT_MS_DEFAULT,
  'How long to wait, in milliseconds, when nothing new is there yet; the call returns the moment something arrives. 0 returns at once',
);

const idText = (what: string) => z.string().trim().min(1).max(200).optional().describe(what);

/** Descriptions of the six correlation ids, shared by inputs, outputs and filters. */
export const correlationDescriptions = {
  run_id: 'Run the call belongs to (a workflow, pipeline, runner or child run)',
  op_id: 'Operation id grouping the steps of one logical operation',
  job_id: 'Job the call belongs to',
  graph_id: 'Plan graph the call is about',
  node_id: 'Node (task) of the plan graph the call is about',
  child_id: 'Child runtime the call is about',
} as const;

/** The correlation ids a caller may attach to a call; they are copied onto the events it emits. */
export const correlationInput = {
  run_id: idText(correlationDescriptions.run_id),
  op_id: idText(correlationDescriptions.op_id),
  job_id: idText(correlationDescriptions.job_id),
  graph_id: idText(correlationDescriptions.graph_id),
  node_id: idText(correlationDescriptions.node_id),
  child_id: idText(correlationDescriptions.child_id),
};

/** Correlation ids without `graph_id`, for tools where `graph_id` is the required target. */
export const correlationInputWithoutGraph = {
  run_id: correlationInput.run_id,
  op_id: correlationInput.op_id,
  job_id: correlationInput.job_id,
  node_id: correlationInput.node_id,
  child_id: correlationInput.child_id,
};

/** The optional operation id every read accepts (echoed in the result). */
export const opIdInput = { op_id: correlationInput.op_id };

/** Operation id of a result: the caller's, or one the server made up. */
export const opIdOutput = {
  op_id: z.string().describe('Operation id of this call: the one passed in, or a generated one'),
};

/** Correlation ids on an output record: always present, `null` when unknown. */
export const correlationOutput = {
  run_id: z.string().nullable().describe(correlationDescriptions.run_id),
  op_id: z.string().nullable().describe(correlationDescriptions.op_id),
  job_id: z.string().nullable().describe(correlationDescriptions.job_id),
  graph_id: z.string().nullable().describe(correlationDescriptions.graph_id),
  node_id: z.string().nullable().describe(correlationDescriptions.node_id),
  child_id: z.string().nullable().describe(correlationDescriptions.child_id),
};

/** `idempotency_key` input of the mutating tools. */
export const idempotencyKeyInput = {
  idempotency_key: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .optional()
    .describe(
      'Retry key: a second call with the same key and the same arguments returns the first answer without doing the change again; the same key with other arguments is refused',
    ),
};

/** Fields every result of a tool with `idempotency_key` carries. */
export const idempotencyOutput = {
  idempotent: z.boolean().describe('True when this answer is the stored answer of an earlier call with the same key'),
  idempotency_key: z.string().nullable().describe('The idempotency key of the call, null when none was given'),
};

/**
 * The same two fields on a creating tool whose answer keeps its public contract's shape
 * (task_create, start_workflow, start_task, worker_command): present only when the call gave a key.
 */
export const idempotencyOutputWithKey = {
  idempotent: idempotencyOutput.idempotent.optional(),
  idempotency_key: z.string().optional().describe('The idempotency key of the call (only when one was given)'),
};

/** Upper bound of `limit` on every paginated orchestrator read. */
export const PAGE_LIMIT_MAX = 500;

/** Scalar value of a graph attribute or of graph metadata. */
export const attributeValue = z.union([z.string(), z.number(), z.boolean()]);

/** Record of scalar attributes (nodes, edges, graph metadata). */
export const attributeRecord = z.record(z.string().min(1).max(200), attributeValue);
