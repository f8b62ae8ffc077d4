/**
 * What each MCP host does when it connects to a remote server with OAuth, from its published documentation and
 * issue trackers (docs/mcp.md "Per-host setup"): which revisions it speaks, where it looks for the protected-resource
 * metadata, how it registers, and which redirect URIs it registers.
 */
export interface HostProfile {
  id: string;
  name: string;
  revisions: Revision[];
  /** Probes the path-suffixed metadata (`/.well-known/oauth-protected-resource/<path>`) before the root one. */
  pathAwareMetadata: boolean;
  /** How it gets a client id: a Client ID Metadata Document when the server supports one, else Dynamic Registration. */
  registration: Array<'cimd' | 'dcr'>;
  /** The redirect URIs it registers, all in one registration (Cursor sends several). */
  redirectUris: string[];
  /** Checks the `iss` of the authorization response (RFC 9207): required of 2026-07-28 clients. */
  checksIss: boolean;
}

export type Revision = '2025-06-18' | '2025-11-25' | '2026-07-28';

export const HOSTS: HostProfile[] = [
  {
    id: 'claude',
    name: 'Claude (claude.ai / claude.com connectors)',
    revisions: ['2025-06-18', '2025-11-25'],
    pathAwareMetadata: true,
    registration: ['cimd', 'dcr'],
    redirectUris: ['https://claude.ai/api/mcp/auth_callback', 'https://claude.com/api/mcp/auth_callback'],
    checksIss: false,
  },
  {
    id: 'chatgpt',
    name: 'ChatGPT (apps / connectors)',
    revisions: ['2025-06-18', '2025-11-25'],
    pathAwareMetadata: true,
    registration: ['cimd', 'dcr'],
    redirectUris: ['https://chatgpt.com/connector/oauth/mcp-doctor'],
    checksIss: false,
  },
  {
    id: 'vscode',
    name: 'VS Code',
    revisions: ['2025-06-18', '2025-11-25'],
    pathAwareMetadata: false,
    registration: ['dcr'],
    redirectUris: ['http://127.0.0.1:33418/', 'https://vscode.dev/redirect'],
    checksIss: false,
  },
  {
    id: 'cursor',
    name: 'Cursor',
    revisions: ['2025-06-18', '2025-11-25'],
    pathAwareMetadata: true,
    registration: ['dcr'],
    redirectUris: ['cursor://anysphere.cursor-retrieval/oauth/user-operator-platform/callback', 'http://localhost:54321/callback'],
    checksIss: false,
  },
  {
    id: 'claude-code',
    name: 'Claude Code',
    revisions: ['2025-06-18', '2025-11-25'],
    pathAwareMetadata: true,
    registration: ['dcr'],
    redirectUris: ['http://localhost:54322/callback'],
    checksIss: false,
  },
  {
    id: 'sdk-2026',
    name: 'SDK v2 clients on 2026-07-28 (MCP Inspector 2.x, @modelcontextprotocol/client)',
    revisions: ['2026-07-28'],
    pathAwareMetadata: true,
    registration: ['cimd', 'dcr'],
    redirectUris: ['http://localhost:54323/callback'],
    checksIss: true,
  },
];
