import { http } from '../helpers/http';
import { signupOperator } from '../helpers/identity';
import { rpc } from '../helpers/mcp';
import { startOAuthApp } from '../helpers/mcpOAuth';
import { approvedCode, exchange, tokenRequest } from '../helpers/mcpOAuthRaw';

describe('no token, code or verifier in a log', () => {
  it('a whole flow at trace level — code, reuse, refresh, refresh reuse, revocation — writes none of them', async () => {
    const lines: string[] = [];
    const app = await startOAuthApp({ LOG_LEVEL: 'trace' }, { logLines: lines });
    try {
      const owner = await signupOperator(app.url, 'Logged Casino');
      const grant = await approvedCode(app, owner.accessToken);
      const first = await exchange(app, grant);
      expect(first.status).toBe(200);
      expect((await exchange(app, grant)).status).toBe(400);
      const second = await approvedCode(app, owner.accessToken);
      const tokens = (await exchange(app, second)).body;
      expect((await http(`${app.url}/mcp-server`, { token: tokens.access_token, body: rpc('tools/list') })).status).toBe(200);
      const rotated = await tokenRequest(app, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token!, client_id: second.clientId });
      expect(rotated.status).toBe(200);
      expect((await tokenRequest(app, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token!, client_id: second.clientId })).status).toBe(400);
      await tokenRequest(app, { grant_type: 'refresh_token', refresh_token: 'mcprt_made-up', client_id: second.clientId });
      expect((await http(`${app.url}/oauth/revoke`, { body: { token: rotated.body.refresh_token } })).status).toBe(200);
      const secrets = [
        grant.code,
        grant.verifier,
        second.code,
        second.verifier,
        first.body.access_token,
        first.body.refresh_token,
        tokens.access_token,
        tokens.refresh_token,
        rotated.body.access_token,
        rotated.body.refresh_token,
      ];
      expect(lines.length).toBeGreaterThan(10);
      for (const secret of secrets) {
        expect(secret).toBeTruthy();
        expect(lines.filter((line) => line.includes(secret!))).toEqual([]);
      }
    } finally {
      await app.close();
    }
  }, 60_000);
});
