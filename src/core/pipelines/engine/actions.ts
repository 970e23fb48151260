import type { Step } from './nextStep';
import type { ReportResult } from '../pipelineContracts';

/**
 * The payloads of the pipeline contract, field for field: the typed actions pipeline_next_action returns
 * (wrapped with `warning`, `display_message` and `report_result`); pipeline_report_result's
 * response is the contract's ReportResult.
 */
export type ActionType = 'spawn_agent' | 'checkpoint' | 'exec' | 'write_file' | 'human_gate' | 'done';

export type Action =
  | {
      type: 'spawn_agent';
      agent: string;
      prompt: string;
      model: string;
      phase: string;
      input_files: string[];
      output_file: string;
      parallel_task_ids: string[] | null;
    }
  | { type: 'checkpoint'; name: string; present_to_user: string; options: string[] }
  | { type: 'exec'; phase: string; commands: string[]; setup_only: boolean }
  | { type: 'write_file'; phase: string; path: string; content: string }
  | { type: 'human_gate'; phase: string; name: string; present_to_user: string; options: string[] }
  | { type: 'done'; summary: string; summary_path: string | null };

export type NextActionResponse = Action & {
  warning: string;
  display_message: string;
  report_result: ReportResult | null;
};

/** The action for a step; `prompt` is the assembled 4-layer prompt of a spawn_agent step. */
export function toAction(step: Step, workspace: string, prompt: string): Action {
  switch (step.type) {
    case 'spawn_agent':
      return {
        type: 'spawn_agent',
        agent: step.agent,
        prompt,
        model: step.model,
        phase: step.phase,
        input_files: step.inputs,
        output_file: step.output,
        parallel_task_ids: step.taskIds.length > 1 ? step.taskIds : null,
      };
    case 'checkpoint':
      return { type: 'checkpoint', name: step.name, present_to_user: step.present, options: step.options };
    case 'human_gate':
      return {
        type: 'human_gate',
        phase: step.phase,
        name: step.name,
        present_to_user: step.present,
        options: step.options,
      };
    case 'exec':
      return { type: 'exec', phase: step.phase, commands: step.commands, setup_only: step.setupOnly };
    case 'write_file':
      return { type: 'write_file', phase: step.phase, path: `${workspace}/${step.artifact}`, content: step.content };
    case 'done':
      return {
        type: 'done',
        summary: step.summary,
        summary_path: step.summaryArtifact ? `${workspace}/${step.summaryArtifact}` : null,
      };
  }
}

/** "Phase 1: Situation Analysis", "Checkpoint A: Human Reviews Design", "PR Creation". */
export function displayMessage(step: Step): string {
  if (step.type === 'done') return step.summary;
  const phase = /^phase-(\w+)$/.exec(step.phase);
  if (phase) return `Phase ${phase[1]}: ${step.label}`;
  const checkpoint = /^checkpoint-(\w+)$/.exec(step.phase);
  if (checkpoint) return `Checkpoint ${checkpoint[1].toUpperCase()}: ${step.label}`;
  return step.label;
}
