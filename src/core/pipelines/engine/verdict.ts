/**
 * Review verdicts and findings (the pipeline contract's verdict table), parsed from the Markdown a
 * reviewer agent writes. Pure: text in, verdict out.
 */
export const reviewVerdicts = ['APPROVE', 'APPROVE_WITH_NOTES', 'REVISE'] as const;
export const codeVerdicts = ['PASS', 'PASS_WITH_NOTES', 'FAIL'] as const;
export type ReviewVerdict = (typeof reviewVerdicts)[number];
export type CodeVerdict = (typeof codeVerdicts)[number];
export type Verdict = ReviewVerdict | CodeVerdict;
export type VerdictFamily = 'review' | 'code';

export const severities = ['CRITICAL', 'MAJOR', 'MINOR', 'INFO'] as const;
export type Severity = (typeof severities)[number];

export interface Finding {
  severity: Severity;
  description: string;
}

export interface ParsedReview {
  /** null when the text holds no verdict line of the expected family. */
  verdict: Verdict | null;
  /** A verdict of the other family (e.g. PASS in a design review), to name it in the error. */
  foreign: Verdict | null;
  findings: Finding[];
}

const allVerdicts: readonly Verdict[] = [...reviewVerdicts, ...codeVerdicts];

/** `## Verdict: X`, `Verdict: X`, `**Verdict:** X`, `- Verdict — X`; the token may use spaces or dashes. */
const verdictLine =
  /^\s*(?:[-*]\s*)?(#{1,6}\s*)?(?:\*\*|__)?verdict(?:\*\*|__)?\s*[:：\-—]\s*(?:\*\*|__|`)?\s*([A-Za-z][A-Za-z _-]*[A-Za-z])/i;
/** `**1. [CRITICAL] text**`, `- [MAJOR] text`, `[MINOR]: text`, `1. **[INFO]** text`. */
const findingLine =
  /^\s*(?:[-*+]\s+|\d+[.)]\s+)?(?:\*\*|__)?(?:\d+[.)]\s+)?(?:\*\*)?\[(CRITICAL|MAJOR|MINOR|INFO)\](?:\*\*)?\s*[:\-—]?\s*(.+)$/i;

/**
 * Reads a verdict and its findings. A heading (`## Verdict: …`) wins over an inline line;
 * among several of the same form, the last one wins, since reviewers restate the verdict at
 * the end. Findings keep their order; bold markers and trailing `**` are stripped.
 */
export function parseReview(text: string, family: VerdictFamily): ParsedReview {
  const wanted = family === 'review' ? reviewVerdicts : codeVerdicts;
  let heading: Verdict | null = null;
  let inline: Verdict | null = null;
  let foreign: Verdict | null = null;
  const findings: Finding[] = [];
  for (const line of text.split(/\r?\n/)) {
    const v = verdictLine.exec(line);
    if (v) {
      const token = normalizeToken(v[2]);
      if (token && (wanted as readonly string[]).includes(token)) {
        if (v[1]) heading = token;
        else inline = token;
      } else if (token) {
        foreign = token;
      }
      continue;
    }
    const f = findingLine.exec(line);
    if (f) {
      const description = f[2].replace(/\*\*|__/g, '').trim();
      if (description) findings.push({ severity: f[1].toUpperCase() as Severity, description });
    }
  }
  return { verdict: heading ?? inline, foreign: (heading ?? inline) ? null : foreign, findings };
}

/** "approve with notes" → APPROVE_WITH_NOTES; the longest known token that starts the text. */
function normalizeToken(raw: string): Verdict | null {
  const token = raw
    .trim()
    .toUpperCase()
    .replace(/[\s-]+/g, '_');
  const matches = allVerdicts.filter((v) => token === v || token.startsWith(`${v}_`));
  if (matches.length === 0) return null;
  return matches.sort((a, b) => b.length - a.length)[0];
}

/** Does this verdict send the work back? */
export function isRejection(verdict: Verdict): boolean {
  return verdict === 'REVISE' || verdict === 'FAIL';
}
