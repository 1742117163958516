// A code editor (CodeMirror 6) for the settings that are code or long text: a function's code and condition
// expressions (JavaScript), JSON bodies, prompts (plain text). It highlights the language and the references in it,
// completes `<block.field>` / `{{ENV}}` as the plain inputs do (suggestions.ts), and marks the problems of its text
// (field-problems.ts) inline and under the field. Tab indents; Escape then Tab leaves the field (CodeMirror's
// convention, README "Editor"). Its undo history is its own: Ctrl+Z inside it undoes typing there, not the workflow.
import { autocompletion, closeCompletion, completionStatus, type CompletionSource } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { javascript } from '@codemirror/lang-javascript';
import { json } from '@codemirror/lang-json';
import { indentOnInput, syntaxHighlighting } from '@codemirror/language';
import { setDiagnostics, type Diagnostic } from '@codemirror/lint';
import { Annotation, EditorState, Prec, Transaction, type Extension } from '@codemirror/state';
import {
  Decoration,
  EditorView,
  keymap,
  lineNumbers,
  placeholder as placeholderText,
  ViewPlugin,
  type DecorationSet,
  type ViewUpdate,
} from '@codemirror/view';
import { classHighlighter } from '@lezer/highlight';
import { useContext, useEffect, useId, useMemo, useRef, useState, type MutableRefObject } from 'react';
import { findReferences } from '../../../src/workflow/references.js';
import { inlineProblems } from './field-problems';
import type { FieldProblem } from './problems';
import { matchesFor, SuggestionsContext, tokenAt, type Suggestion } from './suggestions';

export type CodeLanguage = 'javascript' | 'json' | 'text';

export interface CodeFieldProps {
  /** The field's label: the editable area's accessible name. */
  label: string;
  value: string;
  onChange: (value: string) => void;
  language: CodeLanguage;
  /** The server's problems in this field (paths inside it are not used: the message names what to mark). */
  problems?: readonly FieldProblem[];
  placeholder?: string;
  /** Line numbers, for code of more than a line or two. */
  numbered?: boolean;
}

const NO_PROBLEMS: readonly FieldProblem[] = [];

/** Marks a change that came from the workflow (its undo, a rename), not from typing here: not echoed back, not undoable here. */
const fromWorkflow = Annotation.define<boolean>();

/** `<block.field>` and `{{ENV}}` completion at the caret, from the same matching as the plain inputs. */
function referenceCompletions(suggestions: MutableRefObject<Suggestion[]>): CompletionSource {
  return (context) => {
    const line = context.state.doc.lineAt(context.pos);
    const caret = context.pos - line.from;
    // Ctrl+Space outside a reference lists the blocks' outputs to insert at the caret.
    const token = tokenAt(line.text, caret) ?? (context.explicit ? { kind: 'block' as const, query: '', start: caret, end: caret } : null);
    const options = matchesFor(suggestions.current, token).map((s) => ({ label: s.value, detail: s.detail, type: 'variable' }));
    if (!token || options.length === 0) return null;
    return { from: line.from + token.start, to: context.pos, options, filter: false };
  };
}

/** Only the part that differs is replaced, so a caret elsewhere in the text stays where it was. */
function changedPart(before: string, after: string) {
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) start++;
  let end = 0;
  while (end < before.length - start && end < after.length - start && before[before.length - 1 - end] === after[after.length - 1 - end]) end++;
  return { from: start, to: before.length - end, insert: after.slice(start, after.length - end) };
}

const referenceMark = Decoration.mark({ class: 'cm-reference' });

function referenceDecorations(view: EditorView): DecorationSet {
  const text = view.state.doc.toString();
  return Decoration.set(findReferences(text).map((ref) => referenceMark.range(ref.start, ref.end)));
}

/** References stand out in any language, by the server's own rule of what a reference is. */
const highlightReferences = ViewPlugin.fromClass(
  class {
    decorations: DecorationSet;
    constructor(view: EditorView) {
      this.decorations = referenceDecorations(view);
    }
    update(update: ViewUpdate) {
      if (update.docChanged) this.decorations = referenceDecorations(update.view);
    }
  },
  { decorations: (plugin) => plugin.decorations },
);

/**
 * Escape closes the completion list when one is shown, and only then is it this field's: otherwise it goes on to the
 * editor, which takes the focus out of the field (use-shortcuts.ts) so the next Tab moves on. A completion still being
 * looked up is dropped without keeping the Escape.
 */
const escapeKeymap = Prec.highest(
  keymap.of([
    {
      key: 'Escape',
      run: (view) => {
        const status = completionStatus(view.state);
        if (status !== null) closeCompletion(view);
        return status === 'active';
      },
    },
  ]),
);

/** Colours are the app's variables, which follow its light or dark mode by themselves (styles.css, light-dark()). */
const appTheme = EditorView.theme({
  '&': { border: '1px solid var(--border)', borderRadius: '6px', background: 'var(--panel)', color: 'var(--text)' },
  '&.cm-focused': { outline: '2px solid var(--accent-soft)', borderColor: 'var(--accent)' },
  '.cm-content': { caretColor: 'var(--text)', padding: '6px 0' },
  '.cm-line': { padding: '0 8px' },
  '.cm-cursor, .cm-dropCursor': { borderLeftColor: 'var(--text)' },
  '.cm-gutters': { background: 'var(--subtle)', color: 'var(--muted)', borderRight: '1px solid var(--border)' },
  '.cm-placeholder': { color: 'var(--muted)' },
  '.cm-tooltip': { background: 'var(--panel)', color: 'var(--text)', border: '1px solid var(--border)', borderRadius: '6px' },
  '.cm-tooltip-autocomplete > ul > li[aria-selected]': { background: 'var(--accent-soft)', color: 'var(--text)' },
  '.cm-completionDetail': { opacity: '0.75' },
  '.cm-diagnostic-error': { borderLeftColor: 'var(--error)' },
  '.cm-diagnostic-warning': { borderLeftColor: 'var(--warn)' },
});

const codeFont = EditorView.theme({ '.cm-scroller': { fontFamily: 'var(--mono)', fontSize: '12.5px' } });
const proseFont = EditorView.theme({ '.cm-scroller': { fontFamily: 'inherit', lineHeight: '1.45' } });

function languageExtensions(language: CodeLanguage): Extension[] {
  switch (language) {
    case 'javascript':
      return [javascript(), codeFont];
    case 'json':
      return [json(), codeFont];
    case 'text':
      return [EditorView.lineWrapping, proseFont];
  }
}

export function CodeField({ label, value, onChange, language, problems = NO_PROBLEMS, placeholder, numbered = false }: CodeFieldProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  /** Counts the editors made (a new label makes a new one), so the marks are put on each. */
  const [made, setMade] = useState(0);
  const problemsId = useId();
  const suggestions = useRef<Suggestion[]>([]);
  suggestions.current = useContext(SuggestionsContext);
  const latest = useRef({ value, onChange });
  latest.current = { value, onChange };

  useEffect(() => {
    const editor = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: latest.current.value,
        extensions: [
          history(),
          indentOnInput(),
          // Tab indents rather than leaving: the keyboard leaves with Escape, then Tab.
          escapeKeymap,
          keymap.of([indentWithTab, ...defaultKeymap, ...historyKeymap]),
          autocompletion({ override: [referenceCompletions(suggestions)], icons: false }),
          syntaxHighlighting(classHighlighter),
          highlightReferences,
          ...languageExtensions(language),
          ...(numbered ? [lineNumbers()] : []),
          ...(placeholder ? [placeholderText(placeholder)] : []),
          EditorView.contentAttributes.of({ 'aria-label': label, 'aria-describedby': problemsId }),
          appTheme,
          EditorView.updateListener.of((update) => {
            if (!update.docChanged || update.transactions.every((tr) => tr.annotation(fromWorkflow))) return;
            latest.current.onChange(update.state.doc.toString());
          }),
        ],
      }),
    });
    view.current = editor;
    setMade((count) => count + 1);
    return () => {
      editor.destroy();
      view.current = null;
    };
  }, [label, language, numbered, placeholder, problemsId]);

  // The workflow changed this field (undo on the canvas, a renamed block's references): show it, keeping the caret.
  useEffect(() => {
    const editor = view.current;
    const shown = editor?.state.doc.toString();
    if (!editor || shown === undefined || shown === value) return;
    editor.dispatch({
      changes: changedPart(shown, value),
      annotations: [fromWorkflow.of(true), Transaction.addToHistory.of(false)],
    });
  }, [value]);

  const shownProblems = useMemo(() => inlineProblems(value, problems, { json: language === 'json' }), [value, problems, language]);
  // The marks follow the problems' content (shownKey), not the list: the form hands over a new list on every render.
  const shownKey = JSON.stringify(shownProblems);
  useEffect(() => {
    const editor = view.current;
    if (!editor) return;
    const length = editor.state.doc.length;
    const diagnostics: Diagnostic[] = shownProblems.flatMap((problem) =>
      problem.ranges
        .filter((range) => range.to <= length)
        .map((range) => ({ from: range.from, to: range.to, severity: problem.severity, message: problem.message })),
    );
    editor.dispatch(setDiagnostics(editor.state, diagnostics));
  }, [shownKey, made]);

  return (
    <div className={`code-field code-${language} nokey`} data-language={language}>
      <div ref={host} />
      {/* Named by nothing of its own: the field's label must name the editable area alone. It describes that area. */}
      <ul id={problemsId} className="field-problems" hidden={shownProblems.length === 0}>
        {shownProblems.map((problem, index) => (
          <li key={index} className={problem.severity === 'error' ? 'error-text' : 'warn-text'}>
            ⚠ {problem.message}
          </li>
        ))}
      </ul>
    </div>
  );
}
