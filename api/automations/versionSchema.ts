import { z } from 'zod';
import '../openapi/registry';
import { NODE_TYPES } from '../../core/automations/types';
import { AutomationEdgeSchema, AutomationNodeSchema } from './schema';

/** The largest version a workflow can have: its column is a PostgreSQL integer. */
export const MAX_VERSION = 2_147_483_647;

const versionNumber = z.coerce.number().int().min(1).max(MAX_VERSION);

export const VersionParams = z.object({ id: z.string().min(1).max(200), version: versionNumber });
export const ListVersionsQuery = z
  .object({ limit: z.coerce.number().int().min(1).max(100).default(50), offset: z.coerce.number().int().min(0).max(1_000_000).default(0) })
  .strict();
export const DiffQuery = z.object({ from: versionNumber, to: versionNumber }).strict();

const createdBy = z.string().nullable().describe('`member:<id>` or `key:<id>` that saved it; null for versions from before this was recorded');

export const VersionSummary = z
  .object({
    version: z.number().int(),
    name: z.string(),
    description: z.string(),
    node_count: z.number().int(),
    edge_count: z.number().int(),
    created_at: z.string(),
    created_by: createdBy,
    saved_by: z
      .string()
      .nullable()
      .describe("Who saved it, to read: the member's display name (else email) or `API key <label>`; null when unknown or since removed"),
  })
  .openapi('WorkflowVersionSummary');

/** A stored definition: the body fields as saved, webhook steps with `webhookId` and `hasSecret` (never a secret). */
export const VersionDefinitionSchema = z
  .object({
    name: z.string(),
    description: z.string(),
    active: z.boolean().describe('as it was when saved; a rollback keeps the current one'),
    mcp_exposed: z.boolean(),
    mcp_tool_name: z.string(),
    nodes: z.array(AutomationNodeSchema),
    edges: z.array(AutomationEdgeSchema),
  })
  .catchall(z.unknown())
  .describe('Every definition field of the body as saved (automation-level settings too), without `layout`')
  .openapi('WorkflowVersionDefinition');

export const VersionRecord = z
  .object({ workflow_id: z.string(), version: z.number().int(), created_at: z.string(), created_by: createdBy, definition: VersionDefinitionSchema })
  .openapi('WorkflowVersion');

const Change = { before: z.unknown().optional().describe('absent: not there before'), after: z.unknown().optional().describe('absent: gone after') };
const DiffNode = z.object({ id: z.string(), type: z.enum(NODE_TYPES), params: z.record(z.string(), z.unknown()) });

export const VersionDiffRecord = z
  .object({
    from: z.number().int(),
    to: z.number().int(),
    fields: z.array(z.object({ field: z.string(), ...Change })).describe('Top-level fields that differ: name, description, active, run_control, …'),
    nodes: z.object({
      added: z.array(DiffNode),
      removed: z.array(DiffNode),
      changed: z.array(
        z.object({
          id: z.string(),
          type: z
            .object({ before: z.enum(NODE_TYPES), after: z.enum(NODE_TYPES) })
            .optional()
            .describe('only when the type changed'),
          params: z.array(z.object({ path: z.string().describe('e.g. `url`, `headers.Authorization`, `body.items[0]`'), ...Change })),
        }),
      ),
    }),
    edges: z.object({ added: z.array(AutomationEdgeSchema), removed: z.array(AutomationEdgeSchema) }),
  })
  .openapi('WorkflowVersionDiff');
