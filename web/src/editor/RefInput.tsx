// A one-line text input with autocomplete for `<block.field>` references and `{{ENV}}` variables: typing `<` or `{{`
// opens a list of what is reachable; arrows move, Enter/Tab insert, Escape closes. Longer text and code are edited in
// CodeField.tsx, which offers the same suggestions.
import { useContext, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { matchesFor, SuggestionsContext, tokenAt, type Suggestion, type Token } from './suggestions';

export function RefInput({
  value,
  onChange,
  placeholder,
  label,
}: {
  value: string;
  onChange: (value: string) => void;
  placeholder?: string;
  label?: string;
}) {
  const all = useContext(SuggestionsContext);
  const ref = useRef<HTMLInputElement>(null);
  const [token, setToken] = useState<Token | null>(null);
  const [active, setActive] = useState(0);

  const matches = useMemo(() => matchesFor(all, token), [all, token]);

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
      <input {...common} />
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
