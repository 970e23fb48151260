import { createHash } from 'node:crypto';
import { createRequestStateCodec, inputRequired, inputResponse } from '@modelcontextprotocol/server';
import type {
  CallToolRequestParams,
  CallToolResult,
  InputRequiredResult,
  RequestStateCodec,
  ServerContext,
} from '@modelcontextprotocol/server';
import type { LazyServices } from '../lazyServices';
import type { CallContext, VerifiedRequest } from '../callContext';
import type { ServerLogin } from '../serverLogin';
import { mayDecide } from '../../core/caller';
import { errorMessage, validationError } from '../../core/errors';
import { ledgerSwitches } from '../../core/access/ledgerSwitches';
import { errorResult } from '../toolResults';

/** The key of the one question a checkpoint asks (in `inputRequests` / `inputResponses`). */
const gateKey = 'checkpoint';
/** How long the person has to answer before the question's state expires (the client asks again with a new call). */
const answerTtlSeconds = 30 * 60;
const stateKeyName = 'pipeline.client_gates.state_key';
/** The ledger_settings names of the checkpoints declined in a client. */
const declinedPrefix = 'pipeline.client_gates.declined:';

/** What a question carries through the client and back (integrity-protected, bound to the caller). */
interface GateState {
  workspace: string;
  checkpoint: string;
  options: string[];
  /** The arguments of the call that asked, so an answer cannot be replayed onto another call. */
  args: string;
}

/**
 * Pipeline checkpoints asked of the person where they are: when `pipeline_next_action` finds a
 * pipeline waiting for a person and the client declares elicitation, the call answers with a
 * question (2026-07-28: an `input_required` result; 2025-11-25: the SDK turns it into
 * `elicitation/create` on the same connection) and the person's answer passes the gate as theirs.
 * Off unless the ledger switches it on (`agent-ledger pipeline client-gates on`: it trusts the
 * client's user interface); never for a caller who may not decide (an agent's token) nor for an
 * agent the runner launched; a decline or a cancel (`claude -p` cancels every question at once) is
 * no decision and that checkpoint is not asked again of that client.
 */
export interface CheckpointGates {
  /** `ServerOptions.requestState.verify`: the question's state, checked (HMAC, expiry, caller). */
  verifyState(state: string, ctx: ServerContext): Promise<unknown>;
  /** tools/call through the gate: `run` calls the tool with the given arguments. */
  callTool(
    params: CallToolRequestParams,
    call: CallContext,
    ctx: ServerContext,
    run: (args: unknown) => Promise<CallToolResult>,
  ): Promise<CallToolResult | InputRequiredResult>;
}

export function checkpointGates(
  services: LazyServices,
  loginOf: (call: CallContext) => ServerLogin | undefined,
  /** `--verbose`: each question asked and each answer, one line (never the comment). */
  log?: (line: string) => void,
): CheckpointGates {
  let codec: Promise<RequestStateCodec<GateState>> | undefined;
  const stateCodec = (): Promise<RequestStateCodec<GateState>> =>
    (codec ??= services.get().then(async (s) =>
      createRequestStateCodec<GateState>({
        key: await s.settings.key(stateKeyName),
        ttlSeconds: answerTtlSeconds,
        bind: (ctx) => principalOf(ctx),
      }),
    )).catch((err: unknown) => {
      codec = undefined;
      throw err;
    });
  /**
   * A checkpoint a client declined or cancelled is not asked of that caller in that client again,
   * whichever server of the ledger it calls next (a replica, this one restarted): a ledger fact
   * (ledger_settings, with a `pipeline.checkpoint_declined_in_client` event), named by a digest
   * of who, where and which round of that checkpoint (the decisions made before it, so the same
   * checkpoint reached again after a rework is asked again). This process remembers what it saw.
   */
  const declined = new Set<string>();
  const declineName = async (call: CallContext, workspace: string, checkpoint: string): Promise<string> => {
    const round = (await (await services.get()).pipelines.detail(workspace)).decisions.length;
    const who = call.caller.tokenId ?? call.caller.name;
    const key = JSON.stringify([who, call.client.info?.name ?? '', workspace, checkpoint, round]);
    return `${declinedPrefix}${createHash('sha256').update(key).digest('base64url')}`;
  };
  const isDeclined = async (call: CallContext, workspace: string, checkpoint: string): Promise<boolean> => {
    const name = await declineName(call, workspace, checkpoint);
    if (declined.has(name)) return true;
    if ((await (await services.get()).settings.get(name)) === null) return false;
    declined.add(name);
    return true;
  };
  const decline = async (call: CallContext, workspace: string, checkpoint: string, action: string): Promise<void> => {
    const name = await declineName(call, workspace, checkpoint);
    declined.add(name);
    await (
      await services.get()
    ).settings.remember(name, action, {
      kind: 'pipeline.checkpoint_declined_in_client',
      payload: { workspace, checkpoint, action, by: call.caller.name, client: call.client.info?.name ?? null },
    });
  };

  const askable = async (call: CallContext): Promise<boolean> => {
    if (!call.client.supportsElicitation('form') || !mayDecide(call.caller)) return false;
    if (loginOf(call)?.agentId !== undefined) return false; // an instance the runner launched: no person there
    return (await services.get()).settings.isOn(ledgerSwitches.clientGates);
  };

  const answer = async (
    args: Record<string, unknown>,
    call: CallContext,
    ctx: ServerContext,
    run: (args: unknown) => Promise<CallToolResult>,
  ): Promise<CallToolResult> => {
    const state = ctx.mcpReq.requestState<GateState>();
    if (!state || state.args !== digest(args))
      return errorResult(validationError('this answer belongs to another question: call pipeline_next_action again'));
    const view = inputResponse(ctx.mcpReq.inputResponses, gateKey);
    log?.(`checkpoint ${state.checkpoint}: ${view.kind === 'elicit' ? view.action : 'no answer'} from ${who(call)}`);
    if (view.kind === 'elicit' && view.action === 'accept') {
      const decision = view.content?.decision;
      const comment = view.content?.comment;
      if (typeof decision !== 'string' || !state.options.includes(decision))
        return errorResult(validationError(`decision must be one of ${state.options.join(', ')}`));
      if (comment !== undefined && (typeof comment !== 'string' || comment.length > 20_000))
        return errorResult(validationError('comment must be text of at most 20,000 characters'));
      try {
        await (
          await services.get()
        ).pipelines.decide(state.workspace, {
          decision,
          comment: comment?.trim() || null,
          by: call.caller.name,
          via: call.caller.tokenId === null ? 'client' : `client (token-${call.caller.tokenId})`,
          checkpoint: state.checkpoint,
        });
      } catch (err) {
        // Decided elsewhere meanwhile (the CLI, the editor): the next action says where the pipeline is.
        console.error(`[agent-ledger] a decision from the client was not recorded: ${errorMessage(err)}`);
      }
    } else {
      await decline(call, state.workspace, state.checkpoint, view.kind === 'elicit' ? view.action : 'none').catch(
        (err: unknown) =>
          console.error(`[agent-ledger] a declined checkpoint was not recorded in the ledger: ${errorMessage(err)}`),
      );
    }
    // The arguments of the first round were applied then: ask only where the pipeline is now.
    return run({ workspace: state.workspace });
  };

  return {
    verifyState: async (state, ctx) => (await stateCodec()).verify(state, ctx),
    callTool: async (params, call, ctx, run) => {
      if (params.name !== 'pipeline_next_action') return run(params.arguments);
      const args = (params.arguments ?? {}) as Record<string, unknown>;
      if (ctx.mcpReq.inputResponses?.[gateKey] !== undefined) return answer(args, call, ctx, run);
      if (
        args.user_response !== undefined ||
        typeof args.workspace !== 'string' ||
        !(await askable(call).catch(() => false))
      )
        return run(args);
      const first = await run({ ...args, wait_ms: 0 });
      const action = first.structuredContent as
        | { type?: string; name?: string; present_to_user?: string; options?: string[]; display_message?: string }
        | undefined;
      const waiting = !first.isError && (action?.type === 'checkpoint' || action?.type === 'human_gate');
      if (!waiting || !action?.name || (await isDeclined(call, args.workspace, action.name).catch(() => false))) {
        // Not a question for the person now: the wait the caller asked for, without applying its arguments twice.
        return waiting && typeof args.wait_ms === 'number' && args.wait_ms > 0
          ? run({ workspace: args.workspace, wait_ms: args.wait_ms })
          : first;
      }
      const options = action.options?.length ? action.options : ['approve', 'reject'];
      log?.(`checkpoint ${action.name}: asked of ${who(call)}`);
      return inputRequired({
        inputRequests: {
          [gateKey]: inputRequired.elicit({
            message: `${action.display_message ?? action.name} — ${action.present_to_user ?? 'Your decision?'}`.slice(
              0,
              4000,
            ),
            requestedSchema: {
              type: 'object',
              properties: {
                decision: {
                  type: 'string',
                  title: 'Decision',
                  oneOf: options.map((o) => ({ const: o, title: optionTitle(o) })),
                },
                comment: { type: 'string', title: 'Comment (optional)', maxLength: 20_000 },
              },
              required: ['decision'],
            },
          }),
        },
        requestState: await (
          await stateCodec()
        ).mint({ workspace: args.workspace, checkpoint: action.name, options, args: digest(args) }, ctx),
      });
    },
  };
}

/** The caller and client of a question, as the log names them. */
function who(call: CallContext): string {
  const token = call.caller.tokenId === null ? 'local' : `token-${call.caller.tokenId}`;
  return `${token} (${call.client.info?.name ?? 'unknown client'})`;
}

/** Who a question's state is bound to: the token of the request, or this machine's user. */
function principalOf(ctx: ServerContext): string {
  const verified = ctx.http?.authInfo?.extra as Partial<VerifiedRequest> | undefined;
  const caller = verified?.caller;
  return caller ? `token-${caller.tokenId ?? ''}` : 'local';
}

function digest(args: Record<string, unknown>): string {
  return createHash('sha256').update(JSON.stringify(args)).digest('base64url');
}

function optionTitle(option: string): string {
  if (option === 'approve') return 'Approve';
  if (option === 'reject') return 'Request changes';
  return option[0].toUpperCase() + option.slice(1);
}
