/** What a single pass over JSON text (possibly broken or cut short) tells before parsing it. */
export interface JsonScan {
  /** Nesting deeper than the limit (the scan still reads on, for an `id` written after it). */
  tooDeep: boolean;
  /** The top-level `"id"` member when it is a string or an integer, as JSON-RPC allows. */
  id?: string | number;
}

/**
 * Scans JSON text character by character, tracking nesting depth and the top-level `id`, so a
 * refusal (too deep, too large, not JSON) can still answer the request it belongs to — also when
 * the `id` comes after the too-deep member, as the MCP SDK client writes a request (`method`,
 * `params`, `jsonrpc`, `id`). Never recursive and never throws, whatever the input; one pass over
 * a frame the framer already bounded.
 */
export function scanJson(text: string, maxDepth: number): JsonScan {
  const scan: JsonScan = { tooDeep: false };
  let depth = 0;
  let expectKey = false;
  let key: string | undefined;
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '"') {
      const end = stringEnd(text, i);
      if (end === -1) break;
      if (depth === 1 && expectKey) {
        key = decodeString(text.slice(i, end + 1));
        expectKey = false;
      } else if (depth === 1 && key === 'id') {
        const id = decodeString(text.slice(i, end + 1));
        if (id !== undefined) scan.id = id;
        key = undefined;
      }
      i = end + 1;
      continue;
    }
    if (c === '{' || c === '[') {
      depth++;
      if (depth > maxDepth) scan.tooDeep = true;
      expectKey = depth === 1 && c === '{';
      if (depth > 1 && key === 'id') key = undefined;
    } else if (c === '}' || c === ']') {
      depth--;
    } else if (c === ',' && depth === 1) {
      expectKey = true;
      key = undefined;
    } else if (depth === 1 && key === 'id' && (c === '-' || (c >= '0' && c <= '9'))) {
      const number = /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(i, i + 32))?.[0] ?? '';
      if (Number.isSafeInteger(Number(number))) scan.id = Number(number);
      key = undefined;
      i += Math.max(1, number.length);
      continue;
    }
    i++;
  }
  return scan;
}

/** Index of the quote closing the string that starts at `start`, or -1 when it is cut short. */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i;
  }
  return -1;
}

function decodeString(literal: string): string | undefined {
  try {
    return JSON.parse(literal) as string;
  } catch {
    return undefined;
  }
}
