import { defineArea } from '../endpoint';
import { bearerApiKey } from '../openapi/registry';
import { createMcpServices } from './services';

/**
 * MCP server (spec 4.6): JSON-RPC 2.0 over `POST /mcp-server` and the legacy `POST /mcp-server/<operator_id>`, the
 * event-stream channel `GET /mcp-server/events`, and the MCP transport's own stream on `GET /mcp-server` (and the
 * legacy path) for list changes. OPTIONS is answered by CORS and the root router; other methods are 405. Every
 * route authenticates in its handler, so that each failure is a JSON-RPC error; the handlers read the request raw (a
 * transport answers malformed input in its own protocol), so the area declares no principal.
 */
export const mcp = defineArea({ prefix: '/mcp-server', errorFormat: 'jsonrpc', security: [{ [bearerApiKey.name]: [] }], setup: createMcpServices });
