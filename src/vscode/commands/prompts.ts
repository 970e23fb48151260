import * as vscode from 'vscode';
import type { z } from 'zod';
import { fieldIssue } from '../../core/contracts/inputValidation';

/**
 * The small input steps of the editor's forms (Create Task, Add Memory Bank Entry, End Session…):
 * one input box or quick pick at a time, "Title (2/6)" in the header. A step the person dismisses
 * rejects with a CancellationError, which the command wrapper ends silently — a form is simply
 * abandoned, with no `if (!answer) return` after every question.
 */
export interface Step {
  title: string;
  step?: number;
  totalSteps?: number;
}

export interface TextOptions {
  prompt: string;
  value?: string;
  placeholder?: string;
  /** The message to show under the box while the value is not acceptable; undefined when it is. */
  validate?: (value: string) => string | undefined;
}

export function askText(step: Step, options: TextOptions): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const box = vscode.window.createInputBox();
    Object.assign(box, {
      title: step.title,
      step: step.step,
      totalSteps: step.totalSteps,
      prompt: options.prompt,
      placeholder: options.placeholder,
      ignoreFocusOut: true,
    });
    box.value = options.value ?? '';
    let accepted = false;
    const check = (value: string): string | undefined => (box.validationMessage = options.validate?.(value));
    const subscriptions = [
      box.onDidChangeValue((value) => check(value)),
      box.onDidAccept(() => {
        if (check(box.value) !== undefined) return;
        accepted = true;
        resolve(box.value);
        box.hide();
      }),
      box.onDidHide(() => {
        for (const s of subscriptions) s.dispose();
        box.dispose();
        if (!accepted) reject(new vscode.CancellationError());
      }),
    ];
    if (box.value !== '') check(box.value);
    box.show();
  });
}

export interface Choice<T> extends vscode.QuickPickItem {
  value: T;
}

export function askChoice<T>(
  step: Step,
  items: readonly Choice<T>[],
  options: { placeholder: string; active?: T },
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const pick = vscode.window.createQuickPick<Choice<T>>();
    Object.assign(pick, {
      title: step.title,
      step: step.step,
      totalSteps: step.totalSteps,
      placeholder: options.placeholder,
      ignoreFocusOut: true,
      matchOnDescription: true,
    });
    pick.items = items;
    // The current or default answer is the focused row: Enter keeps it.
    const active = options.active === undefined ? undefined : items.find((i) => i.value === options.active);
    if (active) pick.activeItems = [active];
    let accepted = false;
    const subscriptions = [
      pick.onDidAccept(() => {
        const chosen = pick.selectedItems[0] ?? pick.activeItems[0];
        if (!chosen) return;
        accepted = true;
        resolve(chosen.value);
        pick.hide();
      }),
      pick.onDidHide(() => {
        for (const s of subscriptions) s.dispose();
        pick.dispose();
        if (!accepted) reject(new vscode.CancellationError());
      }),
    ];
    pick.show();
  });
}

/**
 * An input box check with the words of the tool's zod schema (`title: must not be empty`), the
 * same message the MCP tool and the CLI give. `toValue` turns the typed text into the field's
 * value (undefined for an empty optional field).
 */
export function schemaCheck(
  schema: z.ZodObject,
  field: string,
  toValue: (text: string) => unknown = (text) => text,
): (text: string) => string | undefined {
  return (text) => fieldIssue(schema, field, toValue(text));
}

/** An optional text field: empty means "not given". */
export function optionalText(text: string): string | undefined {
  return text.trim() === '' ? undefined : text;
}
