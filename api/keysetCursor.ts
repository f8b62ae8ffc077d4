import { z } from 'zod';

/** `<timestamp with microseconds>|<id>`: the row a keyset page ended on, as base64url. */
const CURSOR = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z)\|([A-Za-z0-9_-]{1,120})$/;

/** The `nextCursor` of a page: the sort key (microsecond ISO text from the query) and id of its last row. */
export const encodeKeysetCursor = (at: string, id: string): string => Buffer.from(`${at}|${id}`).toString('base64url');

/**
 * The `cursor` query parameter of a keyset-paged list: only what {@link encodeKeysetCursor} gave for ids matching
 * `idPattern` passes, anything else is a 400 naming `cursor`.
 */
export const keysetCursorParam = (idPattern: RegExp) =>
  z
    .string()
    .max(200)
    .transform((value, ctx) => {
      const match = CURSOR.exec(Buffer.from(value, 'base64url').toString('utf8'));
      if (!match || !idPattern.test(match[2]!)) {
        ctx.addIssue({ code: 'custom', message: 'is not a cursor this API gave (nextCursor of a previous page)' });
        return z.NEVER;
      }
      return { at: match[1]!, id: match[2]! };
    });
