import { z } from 'zod';
import { defaultValidationError } from '../middleware/validate';
import { jsonContent } from '../openapi/registry';
import { codedErrors } from '../openapi/responses';
import {
  AudienceResponse,
  AudiencesResponse,
  createAudienceHandler,
  deleteAudienceHandler,
  DeletedResponse,
  exportHandler,
  getAudienceHandler,
  listAudiencesHandler,
  MembersResponse,
  membersHandler,
  SizesResponse,
  sizesHandler,
  updateAudienceHandler,
} from './audiences';
import { analytics } from './area';

/** Saved player audiences (issue 45, docs/analytics.md "Audiences"), declared with the analytics area's other routes. */

const readErrors = (badRequest = 'INVALID_PARAM naming the field') =>
  codedErrors(
    [400, badRequest],
    [401, 'UNAUTHORIZED'],
    [404, 'NOT_FOUND: no such audience of this operator'],
    [429, 'RATE_LIMITED (Retry-After header)'],
    [500, 'INTERNAL_ERROR'],
  );
const writeErrors = (extra: Array<[number, string]> = []) =>
  codedErrors(
    [400, 'VALIDATION_FAILED naming the field'],
    [401, 'UNAUTHORIZED'],
    [403, 'FORBIDDEN: a Member'],
    ...extra,
    [429, 'RATE_LIMITED (Retry-After header)'],
    [500, 'INTERNAL_ERROR'],
  );
const example = {
  name: 'New depositors, no second deposit',
  definition: {
    all: [
      { field: 'ftd_days_ago', op: 'lte', value: 6 },
      { field: 'deposit_count', op: 'eq', value: 1 },
    ],
  },
};
const audience = {
  id: 'aud_3f9c0e5b7a2d4c1e8f6a9b0c1d2e3f40',
  ...example,
  version: 1,
  size: 42,
  evaluated_at: '2026-12-02T10:00:30.000Z',
  created_by: 'member:8c1d…',
  created_at: '2026-12-02T10:00:00.000Z',
  updated_at: '2026-12-02T10:00:00.000Z',
};

analytics.endpoint({
  method: 'get',
  path: '/audiences',
  summary: 'Saved player audiences with their current size',
  guards: ['reads'],
  responses: {
    200: jsonContent(AudiencesResponse, 'The audiences, oldest first', { success: true, data: { audiences: [audience], limit: 50 } }),
    ...readErrors(),
  },
  ...listAudiencesHandler,
});
analytics.endpoint({
  method: 'post',
  path: '/audiences',
  summary: 'Save an audience: players matching all (or any) of up to 20 predicates over their figures and states',
  description:
    'Members come with the next audience pass (at most about a minute). At most 50 per operator. API keys, the Owner and Admins; recorded in the audit trail as `settings.updated`.',
  guards: ['audiences', 'reads'],
  inputError: defaultValidationError,
  request: { body: { description: 'The audience', example } },
  responses: {
    201: jsonContent(AudienceResponse, 'The audience saved', { success: true, data: audience }),
    ...writeErrors([[409, 'AUDIENCE_LIMIT_REACHED: the operator keeps 50 audiences already']]),
  },
  ...createAudienceHandler,
});
analytics.endpoint({
  method: 'get',
  path: '/audiences/:id',
  summary: 'One audience',
  guards: ['reads'],
  responses: { 200: jsonContent(AudienceResponse, 'The audience', { success: true, data: audience }), ...readErrors() },
  ...getAudienceHandler,
});
analytics.endpoint({
  method: 'put',
  path: '/audiences/:id',
  summary: 'Rename or redefine an audience (a new definition is judged over every player at the next pass)',
  guards: ['audiences', 'reads'],
  inputError: defaultValidationError,
  request: { body: { description: 'The audience', example } },
  responses: {
    200: jsonContent(AudienceResponse, 'The audience saved', { success: true, data: { ...audience, version: 2 } }),
    ...writeErrors([[404, 'NOT_FOUND: no such audience of this operator']]),
  },
  ...updateAudienceHandler,
});
analytics.endpoint({
  method: 'delete',
  path: '/audiences/:id',
  summary: 'Delete an audience with its members and size history',
  guards: ['audiences', 'reads'],
  responses: {
    200: jsonContent(DeletedResponse, 'Deleted', { success: true, data: { id: audience.id, deleted: true } }),
    ...writeErrors([[404, 'NOT_FOUND: no such audience of this operator']]),
  },
  ...deleteAudienceHandler,
});
analytics.endpoint({
  method: 'get',
  path: '/audiences/:id/members',
  summary: 'A page of members: external ids and when they entered, latest first',
  guards: ['reads'],
  responses: {
    200: jsonContent(MembersResponse, 'Members', {
      success: true,
      data: { members: [{ external_id: 'p-42', entered_at: '2026-12-02T10:00:30.000Z' }], total: 42, has_more: true },
    }),
    ...readErrors(),
  },
  ...membersHandler,
});
analytics.endpoint({
  method: 'get',
  path: '/audiences/:id/sizes',
  summary: 'The audience’s size per UTC day, with how many entered and left',
  guards: ['reads'],
  responses: {
    200: jsonContent(SizesResponse, 'Sizes, oldest day first', {
      success: true,
      data: { range: { start: '2026-09-04', end: '2026-12-02' }, sizes: [{ day: '2026-12-02', size: 42, entered: 3, exited: 1 }] },
    }),
    ...readErrors(),
  },
  ...sizesHandler,
});
analytics.endpoint({
  method: 'get',
  path: '/audiences/:id/export',
  summary: 'Export the members as CSV: external id and figures, never personal data (rate class analytics:export)',
  description: 'Streamed, at most 100,000 rows in entity order; `X-Truncated: true` when the audience holds more.',
  guards: ['exports'],
  responses: {
    200: {
      description: 'CSV, header row first: external_id, entered_at, ftd_day, deposit_count, last_activity_day, ggr, currency',
      headers: z.object({ 'X-Truncated': z.enum(['true', 'false']).openapi({ description: 'Members were left out past 100,000 rows' }) }),
      content: { 'text/csv': { schema: z.string() } },
    },
    ...readErrors(),
  },
  ...exportHandler,
});
