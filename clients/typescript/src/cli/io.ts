// What every client command shares: where output goes (results on stdout, messages on stderr), the common options,
// reading input, and the wrapper that turns a failure into its message and exit code.
import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { describeError, EXIT, exitCodeFor, UsageError } from './exit-codes.js';
import type { CommonOptions } from './session.js';

export const out = (text: string) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
export const note = (text: string) => process.stderr.write(`${text}\n`);
export const jsonLine = (value: unknown) => out(JSON.stringify(value));
export const pretty = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value, null, 2));

/** Runs a command body; a failure prints its message and sets the exit code scripts see. */
export function action<A extends unknown[]>(body: (...args: A) => Promise<number | void>) {
  return async (...args: A) => {
    const options = args.find((a): a is CommonOptions => typeof a === 'object' && a !== null && !(a instanceof Command)) ?? {};
    try {
      process.exitCode = (await body(...args)) ?? EXIT.ok;
    } catch (error) {
      note(describeError(error, options.json === true));
      process.exitCode = exitCodeFor(error);
    }
  };
}

export function common(command: Command, { workspace = true } = {}): Command {
  command.option('--profile <name>', 'saved login to use (default: the last one)').option('--json', 'print JSON for scripts');
  if (workspace) command.option('--workspace <id>', 'workspace to act in (default: the profile\'s)');
  return command;
}

export function readStdin(): string {
  return readFileSync(0, 'utf8');
}

export function parseJsonObject(text: string, what: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`${what} is not JSON: ${(err as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new UsageError(`${what} must be a JSON object`);
  return value as Record<string, unknown>;
}

export function readInput(options: { input?: string; inputFile?: string }): Record<string, unknown> {
  if (options.input !== undefined && options.inputFile !== undefined) throw new UsageError('Give --input or --input-file, not both');
  if (options.inputFile !== undefined) {
    const text = options.inputFile === '-' ? readStdin() : readFile(options.inputFile);
    return parseJsonObject(text, `--input-file ${options.inputFile}`);
  }
  return options.input === undefined ? {} : parseJsonObject(options.input, '--input');
}

export function readFile(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    throw new UsageError(`Cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
}

export function table(rows: string[][]): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]))).join('  ')).join('\n');
}

export const positiveInt = (name: string) => (value: string) => {
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new UsageError(`${name} must be a positive whole number`);
  return Number(value);
};

