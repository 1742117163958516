// Functions the host calls inside a fresh context. They are evaluated before inputs or user code exist and keep
// their own references to the pristine built-ins, so user code that later replaces JSON, Object.defineProperty or
// Array.prototype cannot change how inputs are defined or how results and errors are read back; at most it changes
// how its own values print. None of them is reachable from user code.
import type { QuickJSContext, QuickJSHandle } from 'quickjs-emscripten';

const HELPERS_SOURCE = String.raw`(() => {
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  const defineProperty = Object.defineProperty;
  const keys = Object.keys;
  const toText = String;
  const ErrorType = Error;
  const global = globalThis;

  const defineGlobal = (name, value) =>
    defineProperty(global, name, { value, writable: true, enumerable: true, configurable: true });

  // JSON has no undefined, functions or symbols; the result keeps its shape with null in their place.
  const jsonSafe = (key, value) =>
    value === undefined || typeof value === 'function' || typeof value === 'symbol' ? null : value;

  // Like Node's console: strings raw, everything else as JSON (or the closest readable text).
  const show = (value) => {
    try {
      switch (typeof value) {
        case 'string': return value;
        case 'undefined': return 'undefined';
        case 'function': return '[Function: ' + (value.name || 'anonymous') + ']';
        case 'bigint': return toText(value) + 'n';
        case 'number': case 'boolean': case 'symbol': return toText(value);
      }
      if (value === null) return 'null';
      if (value instanceof ErrorType) return value.name + ': ' + value.message;
      const json = stringify(value);
      return json === undefined ? toText(value) : json;
    } catch {
      try { return toText(value); } catch { return '[unprintable value]'; }
    }
  };

  return {
    defineInputs(json) {
      const inputs = parse(json);
      for (const name of keys(inputs.values)) defineGlobal(name, inputs.values[name]);
      for (const name of inputs.undefinedNames) defineGlobal(name, undefined);
    },
    installConsole(write) {
      const log = (...args) => {
        let line = '';
        for (let i = 0; i < args.length; i++) line += (i === 0 ? '' : ' ') + show(args[i]);
        write(line);
      };
      defineProperty(global, 'console', {
        value: { log, info: log, warn: log, error: log, debug: log, trace: log },
        writable: true, enumerable: false, configurable: true,
      });
    },
    serialize(value) {
      return stringify(value, jsonSafe) ?? 'null';
    },
    describeError(error) {
      try {
        if (error !== null && (typeof error === 'object' || typeof error === 'function')) {
          const name = error.name, message = error.message, stack = error.stack;
          if (typeof name === 'string' || typeof message === 'string') {
            return stringify({
              name: typeof name === 'string' ? name : 'Error',
              message: typeof message === 'string' ? message : '',
              stack: typeof stack === 'string' ? stack : '',
            });
          }
        }
        return stringify({ thrown: show(error) });
      } catch {
        return stringify({ thrown: '(an exception that could not be read)' });
      }
    },
  };
})()`;

export interface VmHelpers {
  /** (json: string) => void — defines each input as a writable global. */
  defineInputs: QuickJSHandle;
  /** (write: (line: string) => void) => void — installs console.log/info/warn/error/debug/trace. */
  installConsole: QuickJSHandle;
  /** (value) => string — JSON text of a result; throws for BigInt and cycles. */
  serialize: QuickJSHandle;
  /** (error) => string — JSON of ErrorDescription; never throws. */
  describeError: QuickJSHandle;
}

/** What describeError returns: an Error-like value, or the printed form of anything else that was thrown. */
export type ErrorDescription = { name: string; message: string; stack: string } | { thrown: string };

export const HELPERS_FILENAME = 'sandbox-helpers.js';

/** Evaluates the helpers in `context`; the caller owns (and must dispose) every returned handle. */
export function installHelpers(context: QuickJSContext): VmHelpers {
  const evaluated = context.evalCode(HELPERS_SOURCE, HELPERS_FILENAME, { type: 'global', strict: true });
  if (evaluated.error) {
    evaluated.error.dispose();
    throw new Error('Sandbox helpers failed to initialise');
  }
  const object = evaluated.value;
  try {
    return {
      defineInputs: context.getProp(object, 'defineInputs'),
      installConsole: context.getProp(object, 'installConsole'),
      serialize: context.getProp(object, 'serialize'),
      describeError: context.getProp(object, 'describeError'),
    };
  } finally {
    object.dispose();
  }
}
