import type { components } from '../../../api/schema';

/** A key as `GET /api-keys` lists it: the page, its rows and the MCP dialog all work on this record. */
export type ApiKey = components['schemas']['ApiKeyRecord'];

/**
 * How a key is named in texts and accessible names. A key may be created without a label (stored as ""), and a
 * button called "Revoke " would tell a screen-reader user nothing. `undefined` is the key of a dialog closing.
 */
export const keyName = (key: Pick<ApiKey, 'label'> | undefined): string => key?.label || 'unlabelled';
