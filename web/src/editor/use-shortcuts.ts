// The editor's keyboard shortcuts (listed for users in SHORTCUTS, shown by `?`). This hook owns the window listeners:
// keydown for the editor's own keys, and the browser's copy and paste events, so copied blocks go through the system
// clipboard as text (to another workflow or tab). Only while the editor is visible, and never while the user types in
// a field, where the browser's own undo, copy and paste apply. Deleting the selection (Delete/Backspace) and
// Shift-drag to select several blocks are React Flow's, configured on the canvas.
import { useEffect, useRef } from 'react';

export const SHORTCUTS: ReadonlyArray<readonly [keys: string, what: string]> = [
  ['/', 'Search the blocks palette (Enter adds the first match beside the selected block)'],
  ['Ctrl+C / Ctrl+V', 'Copy and paste blocks (also into another workflow or browser tab)'],
  ['Ctrl+D', 'Duplicate the selected blocks'],
  ['Ctrl+A', 'Select every block'],
  ['Shift+drag', 'Select several blocks with a box'],
  ['Delete / Backspace', 'Delete the selection'],
  ['Ctrl+Z / Ctrl+Shift+Z', 'Undo / redo'],
  ['Escape', 'Leave a field, close a menu'],
  ['Escape, then Tab', 'Leave a code field for the next field (Tab alone indents there)'],
  ['Ctrl+Space', 'In a code field: list the references to insert (typing < or {{ lists them too)'],
  ['Right click', 'Block or canvas menu'],
  ['?', 'This list'],
];

export interface ShortcutActions {
  undo(): void;
  redo(): void;
  selectAll(): void;
  duplicate(): void;
  /** The text to put on the clipboard for the selection, or null when nothing is selected. */
  copy(): string | null;
  paste(text: string): void;
  focusSearch(): void;
  toggleHelp(): void;
  /** Escape outside a field: close what is open (the shortcut list, a menu). */
  dismiss(): void;
}

function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return !!el && (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA' || el.tagName === 'SELECT' || el.isContentEditable);
}

export function useShortcuts(visible: boolean, actions: ShortcutActions) {
  const ref = useRef(actions);
  ref.current = actions;
  useEffect(() => {
    if (!visible) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && isTyping(event.target)) {
        // Unless the field used the Escape itself (a code field closing its completion list).
        if (!event.defaultPrevented) (event.target as HTMLElement).blur();
        return;
      }
      if (isTyping(event.target)) return;
      const mod = event.metaKey || event.ctrlKey;
      const key = event.key.toLowerCase();
      const act = (action: () => void) => {
        event.preventDefault();
        action();
      };
      if (mod && key === 'z' && !event.shiftKey) act(ref.current.undo);
      else if (mod && (key === 'y' || (key === 'z' && event.shiftKey))) act(ref.current.redo);
      else if (mod && key === 'a') act(ref.current.selectAll);
      else if (mod && key === 'd') act(ref.current.duplicate);
      else if (!mod && event.key === '/') act(ref.current.focusSearch);
      else if (!mod && event.key === '?') act(ref.current.toggleHelp);
      else if (event.key === 'Escape') ref.current.dismiss();
    };
    const onCopy = (event: ClipboardEvent) => {
      if (isTyping(event.target) || !event.clipboardData) return;
      const text = ref.current.copy();
      if (text === null) return;
      event.clipboardData.setData('text/plain', text);
      event.preventDefault();
    };
    const onPaste = (event: ClipboardEvent) => {
      if (isTyping(event.target) || !event.clipboardData) return;
      event.preventDefault();
      ref.current.paste(event.clipboardData.getData('text/plain'));
    };
    window.addEventListener('keydown', onKey);
    document.addEventListener('copy', onCopy);
    document.addEventListener('paste', onPaste);
    return () => {
      window.removeEventListener('keydown', onKey);
      document.removeEventListener('copy', onCopy);
      document.removeEventListener('paste', onPaste);
    };
  }, [visible]);
}
