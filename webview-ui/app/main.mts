// The MCP Apps' front end (dist/web/app.js, inlined into the ui:// pages of src/mcp/apps/): the
// same views as the editor and the web board, on a chat client's host. The page asks the server
// through the host (App.callServerTool: the host forwards a tools/call with its own credentials).
import { App } from '@modelcontextprotocol/ext-apps';
type CallToolResult = Awaited<ReturnType<App['callServerTool']>>;
import type {
  FileDiffModel,
  PipelineHostMessage,
  PipelineModel,
  PipelineWebviewMessage,
  TaskDetailHostMessage,
  TaskDetailModel,
  TaskDetailWebviewMessage,
} from '../../src/shared/protocol.js';
import { mountPipeline } from '../pipeline/pipeline.js';
import { mountTaskDetail } from '../taskDetail/taskDetail.js';
import type { Host } from '../hosts/host.js';

/** Where the server puts the checkpoint's decision ticket: the result's _meta, which the model does not see. */
const ticketKey = 'agent-ledger/decision-ticket';

const app = new App({ name: 'Agent Ledger', version: '1' });
const root = document.getElementById('app')!;

/** The text of a refusal (`{ error: { message } }`), or the result's text. */
function resultText(r: CallToolResult): string {
  const first = r.content?.[0];
  const text = first && first.type === 'text' ? first.text : '';
  try {
    const parsed = JSON.parse(text) as { error?: { message?: string }; text?: string };
    return parsed.error?.message ?? parsed.text ?? text;
  } catch {
    return text;
  }
}

function applyTheme(): void {
  const theme = app.getHostContext()?.theme;
  if (theme === 'dark' || theme === 'light') document.documentElement.dataset.theme = theme;
}

/** A host for one view: messages of the view become tool calls, their results messages of the host. */
function appHost<ToHost, FromHost>(
  onPost: (m: ToHost) => void,
): {
  host: Host<ToHost, FromHost, unknown>;
  emit: (m: FromHost) => void;
} {
  let handler: ((m: FromHost) => void) | undefined;
  const early: FromHost[] = [];
  return {
    host: {
      kind: 'app',
      post: onPost,
      listen: (h) => {
        handler = h;
        early.splice(0).forEach(h);
      },
      getState: () => undefined,
      setState: () => undefined,
    },
    emit: (m) => (handler ? handler(m) : early.push(m)),
  };
}

function checkpointView(): void {
  let workspace: string | undefined;
  let ticket: string | undefined;
  let model: PipelineModel | undefined;
  let documents: { name: string; text: string | null }[] = [];
  const load = async (): Promise<void> => {
    if (!workspace) return;
    const r = await app.callServerTool({ name: 'ui_checkpoint', arguments: { workspace } });
    if (r.isError) return emit({ type: 'error', message: resultText(r) });
    const sc = r.structuredContent as { pipeline: PipelineModel; documents: typeof documents };
    model = sc.pipeline;
    documents = sc.documents;
    ticket = (r._meta as Record<string, string> | undefined)?.[ticketKey];
    emit({ type: 'pipeline', model });
  };
  const { host, emit } = appHost<PipelineWebviewMessage, PipelineHostMessage>((m) => {
    switch (m.type) {
      case 'refresh':
        void load();
        return;
      case 'decide':
        void (async () => {
          const r = await app.callServerTool({
            name: 'ui_decide_checkpoint',
            arguments: {
              workspace,
              checkpoint: m.checkpoint,
              decision: m.decision,
              comment: m.comment,
              ticket: ticket ?? '',
            },
          });
          emit({ type: 'decided', ok: !r.isError, text: resultText(r) });
          await load();
        })();
        return;
      case 'openArtifact': {
        const a = model?.waiting?.present.find((p) => p.path === m.path);
        const doc = a && documents.find((d) => d.name === a.name);
        if (a) emit({ type: 'artifact', name: a.name, path: a.path, text: doc?.text ?? null });
        return;
      }
    }
  });
  mountPipeline(root, host as never);
  app.ontoolinput = (p) => {
    const w = (p.arguments as { workspace?: unknown } | undefined)?.workspace;
    if (typeof w === 'string') workspace = w;
  };
  app.ontoolresult = () => void load();
}

function taskResultView(): void {
  let taskId: string | number | undefined;
  let diffs: FileDiffModel[] = [];
  const load = async (): Promise<void> => {
    if (taskId === undefined) return;
    const r = await app.callServerTool({ name: 'ui_task_result', arguments: { task_id: taskId } });
    if (r.isError) return emit({ type: 'error', message: resultText(r) });
    const sc = r.structuredContent as { task: TaskDetailModel; diffs: FileDiffModel[] };
    diffs = sc.diffs;
    emit({ type: 'taskDetail', model: sc.task });
  };
  const { host, emit } = appHost<TaskDetailWebviewMessage, TaskDetailHostMessage>((m) => {
    if (m.type === 'refresh') void load();
    if (m.type === 'openDiff') {
      const diff = diffs.find((d) => d.path === m.file.path);
      if (diff) emit({ type: 'fileDiff', file: m.file, diff });
    }
  });
  mountTaskDetail(root, host as never);
  app.ontoolinput = (p) => {
    const t = (p.arguments as { task_id?: unknown } | undefined)?.task_id;
    if (typeof t === 'string' || typeof t === 'number') taskId = t;
  };
  app.ontoolresult = (r) => {
    const sc = r.structuredContent as { task_id?: string; task?: { id?: number } } | undefined;
    taskId ??= sc?.task_id ?? sc?.task?.id;
    void load();
  };
}

if (document.body.dataset.view === 'checkpoint') checkpointView();
else taskResultView();
app.onhostcontextchanged = () => applyTheme();
void app.connect().then(applyTheme);
