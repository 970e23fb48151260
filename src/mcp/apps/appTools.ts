import * as fs from 'node:fs';
import type { CallToolResult, Tool } from '@modelcontextprotocol/server';
import type { Services } from '../../app/services';
import { LedgerError, validationError } from '../../core/errors';
import { parseId } from '../../core/ids';
import { taskFileDiff } from '../../core/tasks/fileDiff';
import type { FileDiff } from '../../core/tasks/fileDiff';
import { pipelineModel, readFlow } from '../../views/pipelineModel';
import { decisionSummary } from '../../views/pipelineText';
import { personName } from '../../views/person';
import { taskDetailModel } from '../../views/taskDetailModel';
import type { ServerLogin } from '../serverLogin';
import { okResult } from '../toolResults';
import type { DecisionTickets } from './decisionTickets';
import { checkpointPage, taskResultPage } from './appResources';

/** Where the decision ticket travels in a result: `_meta`, which hosts give the app and not the model. */
export const ticketKey = 'agent-ledger/decision-ticket';

/** The tools that open a page in clients that render apps, and which page. */
export const toolPages: Record<string, string> = {
  pipeline_next_action: checkpointPage,
  complete_task: taskResultPage,
  task_get: taskResultPage,
};

const appOnly = (resourceUri: string) => ({ ui: { resourceUri, visibility: ['app'] } });

/** Tools only the apps call (visibility `app`: hosts do not offer them to the model); listed only to clients that declared the extension. */
export const appTools: Tool[] = [
  {
    name: 'ui_checkpoint',
    title: 'Checkpoint view',
    description:
      "For the checkpoint's MCP App: the pipeline, the checkpoint waiting for a person and the documents it asks them to read.",
    inputSchema: {
      type: 'object',
      properties: { workspace: { type: 'string', description: 'The pipeline folder, .specs/<name>' } },
      required: ['workspace'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
    _meta: appOnly(checkpointPage),
  },
  {
    name: 'ui_decide_checkpoint',
    title: "A person's checkpoint decision",
    description:
      "For the checkpoint's MCP App only: records the decision a person clicked, with the ticket the app was given. Refused without it, and on a server that holds an agent's credentials.",
    inputSchema: {
      type: 'object',
      properties: {
        workspace: { type: 'string' },
        checkpoint: { type: 'string', description: 'The checkpoint the person saw' },
        decision: { type: 'string', description: 'approve, reject, or an option of the waiting gate' },
        comment: { type: 'string' },
        ticket: { type: 'string', description: "The ticket the checkpoint's view gave the app" },
      },
      required: ['workspace', 'checkpoint', 'decision', 'ticket'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    _meta: appOnly(checkpointPage),
  },
  {
    name: 'ui_task_result',
    title: 'Task result view',
    description: "For the task result's MCP App: the task, its exact diff per file and what its runs cost.",
    inputSchema: {
      type: 'object',
      properties: { task_id: { type: ['string', 'number'], description: 'task-3, or 3' } },
      required: ['task_id'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
    _meta: appOnly(taskResultPage),
  },
];

const maxDocument = 256 * 1024;
const maxDiffs = 30;

function readDocument(file: string): string | null {
  try {
    const fd = fs.openSync(file, 'r');
    try {
      const buf = Buffer.alloc(Math.min(fs.fstatSync(fd).size, maxDocument));
      fs.readSync(fd, buf, 0, buf.length, 0);
      return buf.toString('utf8');
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return null;
  }
}

function text(args: Record<string, unknown>, key: string, required = true): string {
  const v = args[key];
  if (typeof v === 'string' && v.trim() !== '') return v.trim();
  if (!required && v === undefined) return '';
  throw validationError(`${key} is required (a non-empty string)`, { field: key });
}

/** Runs one app tool. The caller checked that the client declared the extension. */
export async function callAppTool(
  name: string,
  args: Record<string, unknown>,
  services: Services,
  login: ServerLogin | undefined,
  tickets: DecisionTickets,
): Promise<CallToolResult> {
  const folder = { name: services.paths.workspace.split(/[\\/]/).pop() ?? '', root: services.paths.workspace };
  switch (name) {
    case 'ui_checkpoint': {
      const workspace = text(args, 'workspace');
      const model = pipelineModel(await services.pipelines.detail(workspace), folder, readFlow(services));
      const documents = (model.waiting?.present ?? []).map((a) => ({ name: a.name, text: readDocument(a.path) }));
      const result = okResult({ pipeline: model, documents });
      // The ticket rides in _meta: the app gets it, the model sees only content and structuredContent.
      if (model.waiting && !login?.hasAgentCredentials)
        result._meta = { [ticketKey]: tickets.issue(model.workspace, model.waiting.name) };
      return result;
    }
    case 'ui_decide_checkpoint': {
      if (login?.hasAgentCredentials)
        throw new LedgerError(
          'Unauthorized',
          "a person's decision is never taken with an agent's credentials: this server acts for an agent (a runner's launch ticket or an agent login). Decide in the editor, the web board (agent-ledger ui) or with agent-ledger pipeline approve|reject.",
          { reason: 'agentCredentials' },
        );
      const workspace = text(args, 'workspace');
      const checkpoint = text(args, 'checkpoint');
      const detail = await services.pipelines.detail(workspace);
      if (!tickets.redeem(text(args, 'ticket'), detail.workspace, checkpoint))
        throw new LedgerError(
          'Unauthorized',
          "no valid ticket: a person decides by clicking in the checkpoint's view (the ticket its page was given is single-use and expires)",
          { reason: 'ticket' },
        );
      const decided = await services.pipelines.decide(workspace, {
        decision: text(args, 'decision'),
        comment: text(args, 'comment', false) || null,
        by: personName('person'),
        via: 'app',
        checkpoint,
      });
      return okResult({ ok: true, text: decisionSummary(decided) });
    }
    case 'ui_task_result': {
      const taskId = parseId('task', args.task_id);
      const model = await taskDetailModel(services, folder, taskId, null);
      const { task } = await services.queries.task(taskId);
      const diffs: FileDiff[] = [];
      if (task.snapshot && task.filesChanged) {
        const truth = await services.truth();
        for (const f of model.files.slice(0, maxDiffs)) diffs.push(await taskFileDiff(truth, task, f, 800));
      }
      return okResult({ task: model, diffs });
    }
    default:
      throw validationError(`unknown tool ${name}`);
  }
}
