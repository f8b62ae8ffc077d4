/** Kept where scripts/nodeCatalog.ts's generated catalog (beside it) imports it from; the type lives in the editor feature. */
export type { GeneratedNodeSpec } from '../../features/automations/editor/components/nodeSpec';
