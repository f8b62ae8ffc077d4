import { AUDIT_TARGET_TYPES } from '../../core/audit';

/** The dashboard's modules by a path TypeScript does not follow: they are ESM with extensionless imports, which the root (CommonJS) check refuses. */
const WEB = '../../web/src/features/audit/components/';

/**
 * The audit log's "What" filter offers the target types the dashboard labels, typed from the OpenAPI document; this
 * keeps them equal to the server's own list (the dashboard cannot import core/), in its order.
 */
it('the audit log labels and offers exactly the target types the server records', async () => {
  const { TARGET_TYPES, TARGET_LABEL } = await import(`${WEB}filters.js`);
  expect(TARGET_TYPES).toEqual([...AUDIT_TARGET_TYPES]);
  for (const type of AUDIT_TARGET_TYPES) expect(typeof TARGET_LABEL[type]).toBe('string');
});
