// The editor's keyboard shortcuts. This hook owns the window keydown listener: Ctrl/⌘+Z undoes, Ctrl/⌘+Shift+Z and
// Ctrl/⌘+Y redo — only while the editor is visible and never while the user types in a field (where the browser's
// own undo applies). Deleting the selection (Delete/Backspace) is React Flow's, configured on the canvas.
import { useEffect } from 'react';

function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return !!el && (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA' || el.tagName === 'SELECT' || el.isContentEditable);
}

export function useShortcuts({ visible, undo, redo }: { visible: boolean; undo: () => void; redo: () => void }) {
  useEffect(() => {
    if (!visible) return;
    const onKey = (event: KeyboardEvent) => {
      if (isTyping(event.target)) return;
      const mod = event.metaKey || event.ctrlKey;
      if (mod && event.key.toLowerCase() === 'z' && !event.shiftKey) {
        event.preventDefault();
        undo();
      } else if (mod && (event.key.toLowerCase() === 'y' || (event.key.toLowerCase() === 'z' && event.shiftKey))) {
        event.preventDefault();
        redo();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [undo, redo, visible]);
}
