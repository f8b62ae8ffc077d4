/**
 * Writes the OpenAPI document the API serves at `/openapi.json` to a file, without starting anything:
 * the dashboard generates its typed client from it (`npm run build:web`), so a change to the API that
 * the UI does not follow fails the dashboard's type check instead of a user's click.
 *
 * Usage: tsx processes/exportOpenapi.ts <out.json>
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import '../api/app';
import { buildOpenApiDocument } from '../api/openapi/registry';

const out = process.argv[2];
if (!out) {
  process.stderr.write('usage: tsx processes/exportOpenapi.ts <out.json>\n');
  process.exit(2);
}
mkdirSync(path.dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`);
