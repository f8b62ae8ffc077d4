import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { NODE_MODULES } from '../../core/automations/nodes';
import { NODE_TYPES } from '../../core/automations/types';

/** The dashboard's copy of the node types is generated from their folders; a stale copy fails here, not in a browser. */
describe("the dashboard's node catalog", () => {
  it('is what `npm run generate:nodes` writes from core/automations/nodes/', () => {
    const script = path.join(__dirname, '../../tools/scripts/generate-node-catalog.ts');
    const checked = spawnSync(process.execPath, [require.resolve('tsx/cli'), script, '--check'], { encoding: 'utf8' });
    expect({ status: checked.status, stderr: checked.stderr }).toEqual({ status: 0, stderr: '' });
  });

  it('labels the branches of exactly the types whose edges branch', () => {
    for (const type of NODE_TYPES) expect([type, NODE_MODULES[type].branchLabels !== null]).toEqual([type, NODE_MODULES[type].branches !== 'none']);
  });

  it("lists a field for every param a type takes, and none it doesn't", () => {
    const SET_BY_SERVER = new Set(['trigger.webhook:webhookId', 'trigger.webhook:hasSecret']);
    for (const type of NODE_TYPES) {
      const params = Object.keys(NODE_MODULES[type].params).filter((param) => !SET_BY_SERVER.has(`${type}:${param}`));
      expect({ type, fields: NODE_MODULES[type].fields.map((field) => field.name).sort() }).toEqual({ type, fields: params.sort() });
    }
  });
});
