import { createContext, useContext } from 'react';
import type { FieldProblem } from '../../../../api/errors';

/** The API's validation problems, placed by node and edge (graph.ts `placeProblems`). */
export interface Placed {
  byNode: Map<string, FieldProblem[]>;
  byEdge: Map<string, FieldProblem[]>;
  general: FieldProblem[];
}

export const ProblemsContext = createContext<Placed>({ byNode: new Map(), byEdge: new Map(), general: [] });
export const useProblems = (): Placed => useContext(ProblemsContext);

/** Each node's status in the run shown on the canvas (Runs tab), if any. */
export const RunStatusContext = createContext<Map<string, string>>(new Map());
