import * as fs from 'node:fs';
import { LedgerError } from '../../core/errors';
import { parseId } from '../../core/ids';
import type { PipelineModel, PipelineWebviewMessage } from '../../shared/protocol';
import { pipelineModel, readFlow } from '../../views/pipelineModel';
import { decisionSummary } from '../../views/pipelineText';
import type { ViewContext } from '../viewSession';
import { ModelSession } from './modelSession';

/** The largest document shown in the page. */
const maxDocumentBytes = 1024 * 1024;

/**
 * A pipeline in a page: the editor's model, its documents shown in the page, and the checkpoint's
 * decision recorded as the person's (`via: web`), refused by the engine when stale.
 */
export class PipelineSession extends ModelSession {
  private model: PipelineModel | undefined;

  constructor(ctx: ViewContext, workspace: string) {
    super(
      ctx,
      async () => {
        const services = ctx.services;
        this.model = pipelineModel(await services.pipelines.detail(workspace), ctx.folder, readFlow(services));
        return { type: 'pipeline', model: this.model };
      },
      async (raw) => {
        const message = raw as unknown as PipelineWebviewMessage;
        switch (message.type) {
          case 'decide':
            try {
              const result = await ctx.services.pipelines.decide(workspace, {
                decision: message.decision,
                comment: message.comment,
                by: ctx.person,
                via: 'web',
                checkpoint: message.checkpoint,
              });
              ctx.post({ type: 'decided', ok: true, text: decisionSummary(result) });
            } catch (err) {
              if (!LedgerError.is(err)) throw err;
              ctx.post({ type: 'decided', ok: false, text: err.message });
            }
            this.changed();
            return true;
          case 'openArtifact':
            this.openArtifact(message.path);
            return true;
          case 'openTask':
            ctx.navigate({ view: 'taskDetail', taskId: parseId('task', message.ledgerTaskId) });
            return true;
          default:
            return false;
        }
      },
    );
  }

  /** A document of this pipeline's model, and only those: the path comes from the page. */
  private openArtifact(file: string): void {
    const m = this.model;
    const artifact = m
      ? [
          ...m.artifacts,
          ...m.phases.flatMap((p) => (p.artifact ? [p.artifact] : [])),
          ...(m.waiting?.present ?? []),
        ].find((a) => a.path === file)
      : undefined;
    if (!artifact) {
      this.ctx.log(`the page asked for ${file}, which is not one of the pipeline's documents`);
      return;
    }
    let text: string | null = null;
    try {
      const fd = fs.openSync(artifact.path, 'r');
      try {
        const buf = Buffer.alloc(Math.min(fs.fstatSync(fd).size, maxDocumentBytes));
        fs.readSync(fd, buf, 0, buf.length, 0);
        text = buf.toString('utf8');
      } finally {
        fs.closeSync(fd);
      }
    } catch {
      text = null;
    }
    this.ctx.post({ type: 'artifact', name: artifact.name, path: artifact.path, text });
  }
}
