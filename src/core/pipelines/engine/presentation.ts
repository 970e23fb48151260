import type { FlowTemplate, PhaseDef } from './flowTemplate';
import { producerOf } from './flowTemplate';
import type { PipelineState, PipelineTask } from './pipelineState';
import { isSkipped } from './phaseProgress';
import type { Finding } from './verdict';
import { plural } from '../../format';

/**
 * What a checkpoint or human gate shows a person (`present_to_user`): what to read, what the
 * reviewers said, and how to decide — the agent cannot decide for them.
 */

const MAX_FINDINGS = 12;

export function howToDecide(state: PipelineState, approve = 'approve', reject = 'reject'): string {
  return [
    `Decide in VS Code (Agent Ledger → Pipelines → ${state.spec_name}) or in a terminal:`,
    `  agent-ledger pipeline ${approve} ${state.workspace}`,
    `  agent-ledger pipeline ${reject} ${state.workspace} --comment "what to change"`,
    'Then call pipeline_next_action again; it returns this checkpoint until a person has decided.',
  ].join('\n');
}

export function checkpointText(state: PipelineState, flow: FlowTemplate, def: PhaseDef): string {
  const lines = [`## ${def.label}`, '', `Pipeline: ${state.title} (${state.workspace}, effort ${state.effort})`, ''];
  const files = def.present.filter((name) => {
    const producer = producerOf(flow, name);
    return !producer || !isSkipped(state, producer.id);
  });
  if (files.length) {
    lines.push('Please review:');
    for (const name of files) {
      const producer = producerOf(flow, name);
      const record = producer ? state.phases[producer.id] : undefined;
      const verdict = record?.verdict
        ? ` — verdict ${record.verdict}, ${plural(record.findings.length, 'finding')}`
        : '';
      lines.push(`- ${state.workspace}/${name}${verdict}`);
    }
    lines.push('');
  }
  const findings = files.flatMap((name) => {
    const producer = producerOf(flow, name);
    return producer ? (state.phases[producer.id]?.findings ?? []) : [];
  });
  if (findings.length) lines.push('Review findings:', ...formatFindings(findings), '');
  if (def.revises)
    lines.push(
      `Approve to continue; reject (with a comment) to send the pipeline back to ${flow.phases.find((p) => p.id === def.revises)?.label ?? def.revises}.`,
      '',
    );
  lines.push(howToDecide(state));
  return lines.join('\n');
}

export function escalationText(state: PipelineState, flow: FlowTemplate): string {
  const esc = state.escalation;
  if (!esc) return '';
  const def = flow.phases.find((p) => p.id === esc.phase);
  const lines = [`## ${def?.label ?? esc.phase}: revision limit reached`, '', esc.reason, ''];
  const record = state.phases[esc.phase];
  const findings = esc.task_ids.length
    ? state.tasks.filter((t) => esc.task_ids.includes(t.id)).flatMap((t) => t.findings)
    : (record?.findings ?? []);
  if (findings.length) lines.push('Open findings:', ...formatFindings(findings), '');
  lines.push(
    'Approve to accept the work as it is and continue; reject to abandon the pipeline.',
    '',
    howToDecide(state),
  );
  return lines.join('\n');
}

export function humanGateText(state: PipelineState, task: PipelineTask): string {
  return [
    `## Task ${task.id}: ${task.title}`,
    '',
    'Only a person can do this step:',
    '',
    task.body || '(see tasks.md)',
    '',
    'When it is done, a person records it; the pipeline waits until then:',
    `  agent-ledger pipeline approve ${state.workspace}        (done)`,
    `  agent-ledger pipeline decide ${state.workspace} skip    (skip this task)`,
    `  agent-ledger pipeline reject ${state.workspace}         (abandon the pipeline)`,
    'or in VS Code (Agent Ledger → Pipelines).',
  ].join('\n');
}

export function formatFindings(findings: readonly Finding[]): string[] {
  const lines = findings.slice(0, MAX_FINDINGS).map((f) => `- [${f.severity}] ${f.description}`);
  if (findings.length > MAX_FINDINGS) lines.push(`- … ${findings.length - MAX_FINDINGS} more`);
  return lines;
}
