import { DefaultFailureConverter } from '@temporalio/common';

/**
 * The failure converter of every client, worker and workflow bundle (loaded by path: the workflow sandbox
 * imports it from the bundle): failure messages and stack traces move into an encoded attribute, so the
 * payload codec seals them like any payload instead of Temporal storing them as plain text.
 */
export const failureConverter = new DefaultFailureConverter({ encodeCommonAttributes: true });
