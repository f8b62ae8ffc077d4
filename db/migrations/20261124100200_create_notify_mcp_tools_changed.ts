import type { Knex } from 'knex';

/**
 * The trigger function behind MCP `notifications/tools/list_changed`: when a workflow starts or stops being a tool
 * (exposed, active, not deleted), or a tool changes what `tools/list` shows of it (name, title, description, the
 * schemas and annotations derived from its nodes and edges), it NOTIFYs `mcp_tools_changed` with the operator id
 * at commit, whichever process or tool made the change.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw(`
    CREATE FUNCTION notify_mcp_tools_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      was_tool boolean := false;
      is_tool boolean := false;
    BEGIN
      IF TG_OP <> 'INSERT' THEN
        was_tool := OLD.active AND OLD.mcp_exposed AND OLD.deleted_at IS NULL;
      END IF;
      IF TG_OP <> 'DELETE' THEN
        is_tool := NEW.active AND NEW.mcp_exposed AND NEW.deleted_at IS NULL;
      END IF;
      IF NOT (was_tool OR is_tool) THEN
        RETURN NULL;
      END IF;
      IF TG_OP = 'UPDATE' AND was_tool AND is_tool AND OLD.name = NEW.name AND OLD.description = NEW.description
         AND OLD.mcp_tool_name = NEW.mcp_tool_name AND OLD.nodes = NEW.nodes AND OLD.edges = NEW.edges THEN
        RETURN NULL;
      END IF;
      IF TG_OP = 'DELETE' THEN
        PERFORM pg_notify('mcp_tools_changed', OLD.operator_id::text);
      ELSE
        PERFORM pg_notify('mcp_tools_changed', NEW.operator_id::text);
      END IF;
      RETURN NULL;
    END $$`);
}

export async function down(db: Knex): Promise<void> {
  await db.raw('DROP FUNCTION notify_mcp_tools_changed()');
}
