import type { Edge } from '@xyflow/react';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { Meta, StepNode } from './graph';

/** What undo restores: the form, the steps (params and place) and the connections — never selection or measurements. */
export interface EditSnapshot {
  meta: Meta;
  nodes: StepNode[];
  edges: Edge[];
}

/** How long edits must pause before they count as one step of history (typing a word is one undo, not five). */
const SETTLE_MS = 400;
const DEPTH = 100;

const strip = (snapshot: EditSnapshot): EditSnapshot => ({
  meta: snapshot.meta,
  nodes: snapshot.nodes.map(({ id, type, position, data }) => ({ id, type, position, data })),
  edges: snapshot.edges.map(({ id, source, target, sourceHandle, label }) => ({
    id,
    source,
    target,
    ...(sourceHandle ? { sourceHandle } : {}),
    ...(label ? { label } : {}),
  })),
});

/** Equal signatures: nothing a designer would undo, or lose by leaving, has changed (places of steps included). */
export function editSignature(snapshot: EditSnapshot): string {
  const { meta, nodes, edges } = strip(snapshot);
  return JSON.stringify([
    meta,
    nodes.map((node) => [node.id, node.data, [Math.round(node.position.x), Math.round(node.position.y)]]),
    edges.map((edge) => [edge.id, edge.sourceHandle ?? null]),
  ]);
}

/**
 * Undo and redo over the editor's state. Every change is watched rather than announced: once edits pause (and no step
 * is being dragged), the state before them becomes one step back. `restore` puts a snapshot back into the editor.
 */
export function useEditHistory(current: EditSnapshot, restore: (snapshot: EditSnapshot) => void) {
  const past = useRef<EditSnapshot[]>([]);
  const future = useRef<EditSnapshot[]>([]);
  const settled = useRef<EditSnapshot>(strip(current));
  const restoring = useRef(false);
  const [, rerender] = useState(0);
  const dragging = current.nodes.some((node) => node.dragging);
  const signature = editSignature(current);

  const flush = useCallback((now: EditSnapshot) => {
    if (editSignature(settled.current) === editSignature(now)) return;
    past.current = [...past.current.slice(-(DEPTH - 1)), settled.current];
    future.current = [];
    settled.current = strip(now);
    rerender((n) => n + 1);
  }, []);

  useEffect(() => {
    if (restoring.current) {
      restoring.current = false;
      settled.current = strip(current);
      return;
    }
    if (dragging) return;
    const timer = setTimeout(() => flush(current), SETTLE_MS);
    return () => clearTimeout(timer);
    // `signature` stands for `current`: positions mid-drag and selection do not restart the wait.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [signature, dragging]);

  const step = (from: { current: EditSnapshot[] }, to: { current: EditSnapshot[] }) => {
    flush(current);
    const target = from.current.at(-1);
    if (!target) return;
    from.current = from.current.slice(0, -1);
    to.current = [...to.current, settled.current];
    settled.current = target;
    restoring.current = true;
    restore(target);
    rerender((n) => n + 1);
  };

  return {
    canUndo: past.current.length > 0 || editSignature(settled.current) !== signature,
    canRedo: future.current.length > 0,
    undo: () => step(past, future),
    redo: () => step(future, past),
    /** Starts history afresh (a loaded or saved workflow): nothing before it can be undone. */
    reset: (snapshot: EditSnapshot) => {
      past.current = [];
      future.current = [];
      settled.current = strip(snapshot);
      rerender((n) => n + 1);
    },
  };
}
