// What a code field marks inline: the server's problems in that field (placed by problems.ts) at the references they
// name, and — in a JSON field — where the text stops being JSON. Kept apart from CodeMirror so it can be tested.
import { parser as jsonParser } from '@lezer/json';
import type { FieldProblem } from './problems.js';

export interface TextRange {
  from: number;
  to: number;
}

export interface InlineProblem {
  message: string;
  /** `error`: the server refuses the workflow until it is fixed; `warning`: it saves, but not as the user may think. */
  severity: 'error' | 'warning';
  /** Where in the text; empty when the problem names nothing that can be found there (it is still shown). */
  ranges: TextRange[];
}

/** The problems under one setting of a block's form, their paths now starting inside it (`['0', 'expression']`). */
export function problemsUnder(problems: readonly FieldProblem[], key: string): FieldProblem[] {
  return problems.filter((p) => p.path[0] === key).map((p) => ({ path: p.path.slice(1), message: p.message }));
}

/** Every place in `text` of each reference (`<fetch.data>`, `{{TOKEN}}`) the message names, as typed. */
export function referenceRanges(text: string, message: string): TextRange[] {
  const ranges: TextRange[] = [];
  for (const [named] of message.matchAll(/<[^<>\s]+>|\{\{[^{}]+\}\}/g)) {
    for (let at = text.indexOf(named); at >= 0; at = text.indexOf(named, at + named.length)) {
      ranges.push({ from: at, to: at + named.length });
    }
  }
  return ranges.sort((a, b) => a.from - b.from);
}

function lineAndColumn(text: string, pos: number): string {
  const before = text.slice(0, pos).split('\n');
  return `line ${before.length}, column ${before[before.length - 1].length + 1}`;
}

/**
 * Text that looks like JSON (starts with `{` or `[`) but does not parse: where it goes wrong and why. The field saves
 * such text as a string (so a half-typed object is not lost), which is why this is a warning. Other text — a lone
 * `<api.data>`, plain words — is not meant as JSON and gets nothing.
 */
export function jsonSyntaxProblem(text: string): InlineProblem | null {
  if (!/^\s*[[{]/.test(text)) return null;
  let reason: string;
  try {
    JSON.parse(text);
    return null;
  } catch (error) {
    // V8 echoes the whole text (`…, "{…}" is not valid JSON`) or a position we say as line and column instead.
    reason = String((error as Error).message)
      .replace(/, ".*" is not valid JSON$/s, '')
      .replace(/ in JSON at position \d+.*$/s, '');
  }
  let at = text.length;
  let end = text.length;
  jsonParser.parse(text).iterate({
    enter: (node) => {
      if (!node.type.isError || node.from >= at) return;
      at = node.from;
      end = node.to;
    },
  });
  // An empty range shows as a point; mark the character there (or the last one, when the text just stops).
  const from = at === end && at === text.length ? Math.max(0, at - 1) : at;
  const to = Math.max(end, Math.min(from + 1, text.length));
  return {
    message: `Not valid JSON: ${reason} (${lineAndColumn(text, at)}). It will be sent as text.`,
    severity: 'warning',
    ranges: [{ from, to }],
  };
}

/** Everything a field shows inline for its text: the server's problems first, then (JSON fields) the syntax. */
export function inlineProblems(text: string, problems: readonly FieldProblem[], options: { json?: boolean } = {}): InlineProblem[] {
  const shown: InlineProblem[] = problems.map((p) => ({ message: p.message, severity: 'error', ranges: referenceRanges(text, p.message) }));
  const syntax = options.json ? jsonSyntaxProblem(text) : null;
  return syntax ? [...shown, syntax] : shown;
}
