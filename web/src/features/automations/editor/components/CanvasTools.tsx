interface Props {
  history: { canUndo: boolean; canRedo: boolean; undo: () => void; redo: () => void };
  onTidy: () => void;
  canTidy: boolean;
}

/** Above the graph: undo and redo (also Ctrl/Cmd+Z, Ctrl/Cmd+Shift+Z), and "Tidy up", which lays the graph out afresh. */
export function CanvasTools({ history, onTidy, canTidy }: Props) {
  return (
    <div className="canvas-tools">
      <div className="row-actions" role="toolbar" aria-label="Edit history">
        <button type="button" className="button button-small" onClick={history.undo} disabled={!history.canUndo} aria-keyshortcuts="Control+Z">
          Undo
        </button>
        <button type="button" className="button button-small" onClick={history.redo} disabled={!history.canRedo} aria-keyshortcuts="Control+Shift+Z">
          Redo
        </button>
      </div>
      <button type="button" className="button button-small" onClick={onTidy} disabled={!canTidy} title="Lay the whole graph out again (Undo puts it back)">
        Tidy up
      </button>
    </div>
  );
}
