// A text input (or textarea) with autocomplete for `<block.field>` references and `{{ENV}}` variables: typing `<`
// or `{{` opens a list of what is reachable; arrows move, Enter/Tab insert, Escape closes.
import { createContext, useContext, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { normalizeName } from './catalog';

export interface Suggestion {
  /** Inserted text, brackets included: `<fetch.data>` or `{{API_TOKEN}}`. */
  value: string;
  detail?: string;
}

export const SuggestionsContext = createContext<Suggestion[]>([]);

interface Token {
  kind: 'block' | 'env';
  query: string;
  start: number;
  end: number;
}

function tokenAt(text: string, caret: number): Token | null {
  const before = text.slice(0, caret);
  const block = /<([A-Za-z0-9_ .[\]-]*)$/.exec(before);
  if (block) return { kind: 'block', query: normalizeName(block[1]), start: caret - block[0].length, end: caret };
  const env = /\{\{\s*([A-Za-z0-9_]*)$/.exec(before);
  if (env) return { kind: 'env', query: env[1].toLowerCase(), start: caret - env[0].length, end: caret };
  return null;
}

export function RefInput({
  value,
  onChange,
  multiline = false,
  rows = 4,
  placeholder,
  className,
  label,
}: {
  value: string;
  onChange: (value: string) => void;
  multiline?: boolean;
  rows?: number;
  placeholder?: string;
  className?: string;
  label?: string;
}) {
  const all = useContext(SuggestionsContext);
  const ref = useRef<HTMLInputElement & HTMLTextAreaElement>(null);
  const [token, setToken] = useState<Token | null>(null);
  const [active, setActive] = useState(0);

  const matches = useMemo(() => {
    if (!token) return [];
    return all
      .filter((s) => (token.kind === 'block' ? s.value.startsWith('<') : s.value.startsWith('{{')))
      .filter((s) => s.value.toLowerCase().replace(/[<>{}]/g, '').includes(token.query))
      .slice(0, 12);
  }, [all, token]);

  const refresh = (text: string, caret: number | null) => {
    const next = caret === null ? null : tokenAt(text, caret);
    setToken(next);
    setActive(0);
  };

  const insert = (suggestion: Suggestion) => {
    if (!token) return;
    const next = value.slice(0, token.start) + suggestion.value + value.slice(token.end);
    onChange(next);
    setToken(null);
    const caret = token.start + suggestion.value.length;
    requestAnimationFrame(() => {
      ref.current?.focus();
      ref.current?.setSelectionRange(caret, caret);
    });
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (!token || matches.length === 0) return;
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      setActive((a) => (a + 1) % matches.length);
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      setActive((a) => (a - 1 + matches.length) % matches.length);
    } else if (event.key === 'Enter' || event.key === 'Tab') {
      event.preventDefault();
      insert(matches[active]);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      setToken(null);
    }
  };

  const common = {
    ref,
    value,
    placeholder,
    'aria-label': label,
    className: `${className ?? ''} ${multiline ? '' : ''}`,
    spellCheck: false,
    onChange: (e: { target: { value: string; selectionStart: number | null } }) => {
      onChange(e.target.value);
      refresh(e.target.value, e.target.selectionStart);
    },
    onKeyDown,
    onBlur: () => setTimeout(() => setToken(null), 150),
    onClick: (e: { currentTarget: { value: string; selectionStart: number | null } }) =>
      refresh(e.currentTarget.value, e.currentTarget.selectionStart),
  };

  return (
    <div className="ref-input">
      {multiline ? <textarea rows={rows} {...common} /> : <input {...common} />}
      {token && matches.length > 0 && (
        <ul className="suggestions" role="listbox">
          {matches.map((s, i) => (
            <li
              key={s.value}
              role="option"
              aria-selected={i === active}
              className={i === active ? 'active' : ''}
              onMouseDown={(e) => {
                e.preventDefault();
                insert(s);
              }}
            >
              <code>{s.value}</code>
              {s.detail && <span className="muted">{s.detail}</span>}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
