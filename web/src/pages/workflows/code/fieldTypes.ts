/** Kept where test/unit/expressionCheck.test.ts reads it (outside web/); the module lives in the editor feature. */
export * from '../../../features/automations/editor/components/code/fieldTypes';
