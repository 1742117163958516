// Collecting validation problems: every rule reports into one list, and the list stays bounded.
import type { z } from 'zod';
import { MAX_PROBLEMS } from '../limits.js';

export interface Problem {
  /** Dotted location in the document, e.g. `blocks.b1.config.url` or `edges.3.target`; '' for the root. */
  path: string;
  message: string;
}

export type Report = (path: string, message: string) => void;

export interface ProblemList {
  report: Report;
  problems(): Problem[];
}

export function createProblemList(limit = MAX_PROBLEMS): ProblemList {
  const problems: Problem[] = [];
  let omitted = 0;
  const seen = new Set<string>();
  return {
    report(path, message) {
      // The same fact reached by two rules (or twice by one) helps nobody.
      const key = `${path}\u0000${message}`;
      if (seen.has(key)) return;
      seen.add(key);
      if (problems.length < limit) problems.push({ path, message });
      else omitted += 1;
    },
    problems() {
      if (omitted === 0) return [...problems];
      return [...problems, { path: '', message: `${omitted} more problems not shown` }];
    },
  };
}

export function joinPath(...segments: ReadonlyArray<PropertyKey>): string {
  return segments
    .map((segment) => String(segment))
    .filter((segment) => segment !== '')
    .join('.');
}

export function reportZodIssues(report: Report, issues: ReadonlyArray<z.core.$ZodIssue>, prefix: string): void {
  for (const issue of issues) report(joinPath(prefix, ...issue.path), describeIssue(issue));
}

function describeIssue(issue: z.core.$ZodIssue): string {
  // "Invalid key in record" alone does not say what is wrong with the key.
  if (issue.code === 'invalid_key' || issue.code === 'invalid_element') {
    const inner = issue.issues[0];
    if (inner) return `${issue.message}: ${inner.message}`;
  }
  return issue.message;
}
