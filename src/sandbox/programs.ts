// The two shapes of user text the sandbox runs, wrapped as an async arrow function so `return` and `await` work.
// Breaking out of the wrapper (`}); …; (async () => {`) gains nothing: it is still code inside the same sandbox.
import type { SourceMap } from './error-message.js';
import type { Program } from './run-program.js';

const FILENAME = 'user-code.js';

const lineCount = (text: string) => text.split('\n').length;

/** A function block's body. Newlines around it keep a trailing `// comment` from swallowing the wrapper. */
export function functionBodyProgram(code: string): Program {
  const map: SourceMap = { filename: FILENAME, lineOffset: 1, lineCount: lineCount(code) };
  return { source: `(async () => {\n${code}\n})()`, map };
}

/** A condition expression; a trailing `;` is forgiven because people type one out of habit. */
export function expressionProgram(expression: string): Program {
  const trimmed = expression.replace(/[\s;]+$/, '');
  const map: SourceMap = { filename: FILENAME, lineOffset: 2, lineCount: lineCount(trimmed) };
  return { source: `(async () => {\nreturn (\n${trimmed}\n);\n})()`, map };
}
