import { LedgerError, errorMessage } from '../../core/errors';
import { taskFileDiff } from '../../core/tasks/fileDiff';
import { parseId, taskKey } from '../../core/ids';
import type { LiveFiles } from '../../views/taskDetailModel';
import type { TaskDetailWebviewMessage } from '../../shared/protocol';
import { measureLiveFiles, taskDetailModel } from '../../views/taskDetailModel';
import type { ViewContext } from '../viewSession';
import { ModelSession } from './modelSession';

/** A task's detail: the same model as the editor's panel; a file's exact diff shown in the page; assign, cancel, resume and review as the person. */
export class TaskDetailSession extends ModelSession {
  private liveFiles: LiveFiles | null = null;

  constructor(ctx: ViewContext, taskId: number) {
    super(
      ctx,
      async () => ({
        type: 'taskDetail',
        model: await taskDetailModel(ctx.services, ctx.folder, taskId, this.liveFiles),
      }),
      async (raw) => {
        const message = raw as unknown as TaskDetailWebviewMessage;
        switch (message.type) {
          case 'openDiff': {
            // Only a file of the task's own list: the path comes from the page.
            const model = await taskDetailModel(ctx.services, ctx.folder, taskId, this.liveFiles);
            const file = model.files.find((f) => f.path === message.file.path);
            if (!file) {
              ctx.post({ type: 'acted', ok: false, text: `${message.file.path} is not a file this task changed` });
              return true;
            }
            const { task } = await ctx.services.queries.task(taskId);
            try {
              const truth = await ctx.services.truth();
              ctx.post({ type: 'fileDiff', file: message.file, diff: await taskFileDiff(truth, task, file) });
            } catch (err) {
              ctx.post({ type: 'acted', ok: false, text: errorMessage(err) });
            }
            return true;
          }
          case 'openTask':
            ctx.navigate({ view: 'taskDetail', taskId: parseId('task', message.taskId) });
            return true;
          case 'assign':
            await this.act(taskId, `assigned to ${message.agent}`, () =>
              ctx.services.tasks.update({ id: taskId, assignee: message.agent }),
            );
            return true;
          case 'cancel':
            await this.act(taskId, 'cancelled', () => ctx.services.tasks.update({ id: taskId, status: 'cancelled' }));
            return true;
          case 'resume':
            await this.act(taskId, 'resumed: the runner may launch it again', () =>
              ctx.services.holds.resume(taskId, ctx.person),
            );
            return true;
          case 'review':
            await this.act(taskId, message.verdict === 'approved' ? 'review approved' : 'review dismissed', () =>
              ctx.services.reviews.review({
                taskId,
                verdict: message.verdict,
                by: ctx.person,
                ...(typeof message.note === 'string' && message.note ? { note: message.note } : {}),
              }),
            );
            return true;
          case 'rewind':
          case 'undoRewind':
          case 'exportWorkflow':
            ctx.post({
              type: 'acted',
              ok: false,
              text: 'Rewind and the workflow report are in the editor and the CLI.',
            });
            return true;
          default:
            return false;
        }
      },
    );
    // A running task's files are measured against its snapshot once, when the page opens.
    void measureLiveFiles(ctx.services, taskId).then(
      (files) => {
        this.liveFiles = files;
        if (files) this.changed();
      },
      (err: unknown) => ctx.log(`measuring the files of ${taskKey(taskId)} failed: ${errorMessage(err)}`),
    );
  }

  private async act(taskId: number, done: string, change: () => Promise<unknown>): Promise<void> {
    try {
      await change();
      this.ctx.post({ type: 'acted', ok: true, text: `${taskKey(taskId)} ${done}.` });
    } catch (err) {
      if (!LedgerError.is(err)) throw err;
      this.ctx.post({ type: 'acted', ok: false, text: err.message });
    }
  }
}
