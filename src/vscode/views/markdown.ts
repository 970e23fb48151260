/** Text shown inside a tooltip's Markdown: every character Markdown (or a `$(icon)`) would interpret is escaped. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>$]/g, '\\$&');
}
