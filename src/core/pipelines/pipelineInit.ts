import * as fs from 'node:fs';
import * as path from 'node:path';
import { LedgerError, validationError } from '../errors';
import type { Effort } from './engine/flowTemplate';
import {
  branchName,
  detectEffort,
  discussionQuestions,
  effortOptions,
  enrichWithDiscussion,
  isMainBranch,
  requestBody,
  requestMarkdown,
} from './engine/effort';
import type { PipelineFlags, PipelineState, SourceType } from './engine/pipelineState';
import { initialState } from './engine/pipelineState';
import type { PipelineStateStore } from './pipelineStateStore';
import type { PipelineResources } from './files/flowFiles';
import {
  datePrefix,
  detectSource,
  fetchNeeded,
  parseArguments,
  proposeWorkspace,
  slugify,
} from './engine/requestSource';
import {
  hasState,
  listPipelineNames,
  readArtifact,
  readState,
  resolvePipelineDir,
  SPECS_DIR,
} from './files/specsFiles';

import type {
  ExternalContext,
  PipelineInitInput,
  PipelineInitResult,
  PipelineInitWithContextInput,
  PipelineInitWithContextResult,
} from './pipelineContracts';

/**
 * The pipeline contract's pipeline_init (detection, no side effect) and pipeline_init_with_context (the
 * three-call handshake: effort detection → optional discussion → confirmation, which alone
 * creates the workspace).
 */
export class PipelineInitializer {
  constructor(
    private readonly root: string,
    private readonly resources: PipelineResources,
    private readonly states: PipelineStateStore,
    private readonly now: () => Date,
  ) {}

  init(input: PipelineInitInput): PipelineInitResult {
    const parsed = parseArguments(input.arguments, input.current_branch?.trim() || null);
    if (parsed.errors.length) return { errors: parsed.errors };
    const source = detectSource(parsed.coreText);
    const bare =
      /^[A-Za-z0-9][\w.-]*$/.test(parsed.coreText) && listPipelineNames(this.root).includes(parsed.coreText)
        ? parsed.coreText
        : null;
    if (source.type === 'workspace' || bare) {
      let dir;
      try {
        dir = resolvePipelineDir(this.root, source.specsPath ?? (bare as string));
      } catch (err) {
        return { errors: [(err as Error).message] };
      }
      if (!hasState(dir))
        return {
          errors: [
            `${dir.rel} holds no pipeline (no state.json); start a new one with a task description, a GitHub or Jira issue URL`,
          ],
        };
      return { resume_mode: 'auto', workspace: dir.rel, instruction: 'call pipeline_next_action' };
    }
    const taken = (name: string): boolean => fs.existsSync(path.join(this.root, SPECS_DIR, name));
    const proposal = proposeWorkspace(this.now(), parsed.coreText, taken);
    return {
      workspace: proposal.workspace,
      spec_name: proposal.specName,
      source_type: source.type,
      source_url: source.url,
      source_id: source.id,
      core_text: parsed.coreText,
      flags: parsed.flags,
      fetch_needed: fetchNeeded(source.type),
    };
  }

  async initWithContext(input: PipelineInitWithContextInput): Promise<PipelineInitWithContextResult> {
    const discussion = input.discussion_answers?.trim() ? input.discussion_answers : null;
    const confirmation = input.user_confirmation ?? null;
    if (discussion && confirmation) {
      throw validationError(
        'ambiguous call: pass discussion_answers (the discussion call) or user_confirmation (the confirmation call), not both',
        { fields: ['discussion_answers', 'user_confirmation'] },
      );
    }
    // The workspace pipeline_init proposed: a new pipeline is only ever created under .specs/.
    const dir = resolvePipelineDir(this.root, input.workspace, { bare: false });
    const flow = this.resources.flow();
    const flags = normalizeFlags(input.flags);
    const external = input.external_context ?? {};
    const sourceUrl = input.source_url?.trim() || null;
    const sourceType = sourceTypeOf(sourceUrl);
    const coreText = (input.task_text ?? '').trim() || sourceUrl || '';
    if (!coreText)
      throw validationError('task_text is required for a text source: pass the core_text pipeline_init returned', {
        field: 'task_text',
      });
    const request = requestBody(sourceType, coreText, external, input.task_text);
    const effortText = `${request.title}\n${request.body}`;

    if (confirmation)
      return this.confirm(dir.rel, input, { flags, external, sourceType, sourceUrl, coreText, request });
    if (!discussion && flags.discuss && sourceType === 'text') {
      return {
        needs_discussion: {
          questions: discussionQuestions,
          message:
            'Please answer the following questions so the pipeline starts from a clear request, then call pipeline_init_with_context again with discussion_answers.',
        },
      };
    }
    const body = discussion ? enrichWithDiscussion(request.body, discussion) : request.body;
    const detected = detectEffort({ flags, external, text: discussion ? `${effortText}\n${discussion}` : effortText });
    const skipped = effortOptions(flow, detected)[detected].skipped_phases.map((p) => p.label);
    return {
      needs_user_confirmation: {
        detected_effort: detected,
        effort_options: effortOptions(flow, detected),
        current_branch: flags.current_branch,
        is_main_branch: isMainBranch(flags.current_branch),
        enriched_request_body: body,
        message: `Detected effort="${detected}". ${skipped.length ? `Effort ${detected} skips: ${skipped.join(', ')}.` : `Effort ${detected} runs every phase.`} Confirm the effort (S, M or L) and whether to work on the current branch with the user, then call pipeline_init_with_context again with user_confirmation { effort, workspace_slug, use_current_branch, enriched_request_body }.`,
      },
    };
  }

  private async confirm(
    proposed: string,
    input: PipelineInitWithContextInput,
    ctx: {
      flags: PipelineFlags;
      external: ExternalContext;
      sourceType: SourceType;
      sourceUrl: string | null;
      coreText: string;
      request: { title: string; body: string };
    },
  ): Promise<PipelineInitWithContextResult> {
    const confirmation = input.user_confirmation as NonNullable<PipelineInitWithContextInput['user_confirmation']>;
    const flow = this.resources.flow();
    const sourceId = input.source_id?.trim() || null;
    const proposedName = proposed.slice(SPECS_DIR.length + 1);
    const date = /^\d{8}/.exec(proposedName)?.[0] ?? datePrefix(this.now());
    let name = proposedName;
    if (confirmation.workspace_slug?.trim()) {
      const slug = slugify(confirmation.workspace_slug);
      const id = sourceId ? slugify(sourceId, 20) : '';
      name = `${date}-${id && !slug.startsWith(`${id}-`) && slug !== id ? `${id}-` : ''}${slug}`;
    }
    const dir = resolvePipelineDir(this.root, `${SPECS_DIR}/${name}`);
    const body = confirmation.enriched_request_body?.trim() || ctx.request.body;
    if (hasState(dir))
      return this.existing(
        dir.rel,
        readState(dir),
        confirmation.effort,
        ctx.coreText,
        readArtifact(dir, 'request.md') ?? '',
      );

    const specName = name.replace(/^\d{8}-/, '');
    const useCurrent = confirmation.use_current_branch === true;
    const branch = useCurrent ? ctx.flags.current_branch : branchName(specName, sourceId, ctx.external);
    const createBranch = !useCurrent && branch !== null;
    const now = this.now().toISOString();
    const state = initialState(flow, {
      workspace: dir.rel,
      specName,
      title: ctx.request.title,
      source: { type: ctx.sourceType, url: ctx.sourceUrl, id: sourceId, core_text: ctx.coreText },
      effort: confirmation.effort,
      flags: ctx.flags,
      branch,
      createBranch,
      workflowId: null,
      now,
    });
    const requestMd = requestMarkdown({
      sourceType: ctx.sourceType,
      sourceUrl: ctx.sourceUrl,
      sourceId,
      effort: confirmation.effort,
      flowTemplate: state.flow_template,
      branch,
      createdAt: now,
      title: ctx.request.title,
      body,
    });
    const created = await this.states.create(dir, state, flow, requestMd);
    return ready(created, requestMd);
  }

  /** A confirmation repeated (a lost response) gets the same answer; a different one is refused. */
  private existing(
    rel: string,
    state: PipelineState,
    effort: Effort,
    coreText: string,
    requestMd: string,
  ): PipelineInitWithContextResult {
    if (state.effort !== effort || state.source.core_text !== coreText) {
      throw new LedgerError(
        'InvalidStatus',
        `${rel} already holds another pipeline (effort ${state.effort}, "${state.title}"); pass another workspace_slug, or resume it with pipeline_next_action`,
        { workspace: rel },
      );
    }
    return ready(state, requestMd);
  }
}

function ready(state: PipelineState, requestMd: string): PipelineInitWithContextResult {
  return {
    ready: true,
    workspace: state.workspace,
    effort: state.effort,
    flow_template: state.flow_template,
    skipped_phases: state.skipped_phases,
    request_md_content: requestMd,
    branch: state.branch,
    create_branch: state.create_branch,
  };
}

function sourceTypeOf(url: string | null): SourceType {
  if (!url) return 'text';
  const detected = detectSource(url).type;
  return detected === 'github_issue' || detected === 'jira_issue' ? detected : 'text';
}

function normalizeFlags(flags: Partial<PipelineFlags> | null | undefined): PipelineFlags {
  return {
    auto: flags?.auto === true,
    skip_pr: flags?.skip_pr === true,
    debug: flags?.debug === true,
    discuss: flags?.discuss === true,
    effort_override: flags?.effort_override ?? null,
    current_branch: flags?.current_branch?.trim() || null,
  };
}
