import { z } from 'zod';
import { CodedError, jsonContent, TeamError } from './registry';

/** `{ success: true, data }`: the success body of every area but key management's messages and analytics' lists. */
export const successBody = <T extends z.ZodType>(data: T) => z.object({ success: z.literal(true), data });

/** A documented success answer: `{ success: true, data }`. */
export const ok = (data: z.ZodType, description: string, example?: unknown) => jsonContent(successBody(data), description, example);

/** A documented page: `{ success: true, data: [...], count }`, `count` the total past paging. */
export const page = (item: z.ZodType, description: string, example?: unknown) =>
  jsonContent(z.object({ success: z.literal(true), data: z.array(item), count: z.number().int() }), description, example);

/** A documented error answer of a `coded` area; the description names its codes. */
export const codedError = (description: string) => jsonContent(CodedError, description);

/** A documented error answer of the team area (`{ success: false, code, error }`). */
export const teamError = (description: string) => jsonContent(TeamError, description);

/** Documented `coded` errors from `[status, description]` pairs, in the order given. */
export const codedErrors = (...entries: Array<[status: number, description: string]>) =>
  Object.fromEntries(entries.map(([status, description]) => [status, codedError(description)]));
