/** MCP tool names of workflows (spec 2.12 `mcp_tool_name`): a slug of the display name, unique per operator. */

const MAX = 64;

/**
 * The tool name for a workflow name: lowercase ASCII (accents dropped), runs of anything else → '_', no leading or
 * trailing '_', at most 64 characters; 'workflow' when nothing is left.
 *
 * @example toolNameOf('Big deposit alert!') // 'big_deposit_alert'
 * @example toolNameOf('¿?') // 'workflow'
 */
export function toolNameOf(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, MAX)
    .replace(/_+$/, '');
  return slug === '' ? 'workflow' : slug;
}

/**
 * A variant of a taken tool name: `<slug>_<n>`, the slug shortened so the result stays within 64 characters.
 *
 * @example withSuffix('big_deposit_alert', 2) // 'big_deposit_alert_2'
 */
export function withSuffix(slug: string, n: number): string {
  const suffix = `_${n}`;
  const base = slug.slice(0, MAX - suffix.length).replace(/_+$/, '');
  return `${base === '' ? 'workflow' : base}${suffix}`;
}
