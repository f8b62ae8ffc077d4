import { createHash } from 'node:crypto';
import {
  isMetadataDocumentClientId,
  metadataTtlSeconds,
  parseScopes,
  pkceMatches,
  redirectUriProblem,
  redirectUriRegistered,
  scopeForTool,
} from '../../core/mcpOAuth';

describe('redirect URIs a host may register', () => {
  it.each([
    'https://claude.ai/api/mcp/auth_callback',
    'https://chatgpt.com/connector/oauth/abc123',
    'http://127.0.0.1:33418/',
    'http://localhost:6274/oauth/callback',
    'http://[::1]:8000/cb',
    'cursor://anysphere.cursor-mcp/oauth/callback',
    'vscode://vscode.github-authentication/did-authenticate',
    'com.example.app:/oauth2redirect',
  ])('accepts %s', (uri) => expect(redirectUriProblem(uri)).toBeNull());

  it.each([
    ['http://claude.ai/cb', 'loopback hosts only'],
    ['http://127.0.0.1.evil.example/cb', 'loopback hosts only'],
    ['https://a.example/cb#x', 'fragment'],
    ['https://user:pw@a.example/cb', 'user information'],
    ['javascript:alert(1)', 'javascript'],
    ['data:text/html,hi', 'data'],
    ['file:///etc/passwd', 'file'],
    ['/relative/cb', 'not an absolute URI'],
    [`https://a.example/${'x'.repeat(2001)}`, 'longer than'],
  ])('refuses %s', (uri, why) => expect(redirectUriProblem(uri)).toContain(why));

  it('compares exactly, but a loopback http URI on any port (RFC 8252 7.3)', () => {
    const registered = ['http://127.0.0.1:33418/callback', 'https://claude.ai/api/mcp/auth_callback'];
    expect(redirectUriRegistered(registered, 'http://127.0.0.1:50111/callback')).toBe(true);
    expect(redirectUriRegistered(registered, 'http://127.0.0.1:50111/other')).toBe(false);
    expect(redirectUriRegistered(registered, 'http://localhost:33418/callback')).toBe(false);
    expect(redirectUriRegistered(registered, 'https://claude.ai/api/mcp/auth_callback')).toBe(true);
    expect(redirectUriRegistered(registered, 'https://claude.ai/api/mcp/auth_callback/')).toBe(false);
    expect(redirectUriRegistered(registered, 'https://claude.ai:8443/api/mcp/auth_callback')).toBe(false);
  });
});

describe('PKCE S256', () => {
  const verifier = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  it('matches the RFC 7636 appendix B pair, nothing else', () => {
    expect(challenge).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
    expect(pkceMatches(verifier, challenge)).toBe(true);
    expect(pkceMatches(`${verifier}x`, challenge)).toBe(false);
    expect(pkceMatches(challenge, challenge)).toBe(false);
    expect(pkceMatches('short', createHash('sha256').update('short').digest('base64url'))).toBe(false);
  });
});

describe('scopes', () => {
  it('reads by default, write includes read, unknown ones are named', () => {
    expect(parseScopes(undefined)).toEqual(['mcp:tools.read']);
    expect(parseScopes('mcp:tools.write')).toEqual(['mcp:tools.read', 'mcp:tools.write']);
    expect(parseScopes('openid mcp:tools.read')).toEqual({ problem: 'unknown scope openid; supported: mcp:tools.read mcp:tools.write' });
  });
  it('a tool needs write unless every action reads', () => {
    const hints = { destructiveHint: false, idempotentHint: true, openWorldHint: false };
    expect(scopeForTool({ readOnlyHint: true, ...hints })).toBe('mcp:tools.read');
    expect(scopeForTool({ readOnlyHint: false, ...hints })).toBe('mcp:tools.write');
  });
});

describe('Client ID Metadata Documents', () => {
  it('are https URLs with a path; loopback http only where allowed', () => {
    expect(isMetadataDocumentClientId('https://claude.ai/oauth/client.json', false)).toBe(true);
    expect(isMetadataDocumentClientId('https://claude.ai/', false)).toBe(false);
    expect(isMetadataDocumentClientId('http://claude.ai/client.json', true)).toBe(false);
    expect(isMetadataDocumentClientId('http://127.0.0.1:9/client.json', false)).toBe(false);
    expect(isMetadataDocumentClientId('http://127.0.0.1:9/client.json', true)).toBe(true);
    expect(isMetadataDocumentClientId('mcpc_0123', false)).toBe(false);
  });
  it('are cached for their max-age within 5 minutes and a day, an hour without one', () => {
    expect(metadataTtlSeconds(undefined)).toBe(3600);
    expect(metadataTtlSeconds('public, max-age=60')).toBe(300);
    expect(metadataTtlSeconds('max-age=7200')).toBe(7200);
    expect(metadataTtlSeconds('max-age=999999')).toBe(86_400);
  });
});
