import { UnsecuredJWT } from 'jose';
import {
  dashboardScopeOf,
  scopeAllows,
  signDashboardCredential,
  verifyDashboardCredential,
  type DashboardCredentialClaims,
} from '../../core/dashboardCredential';
import { signAccessToken, verifyAccessToken } from '../../core/sessionToken';

const SECRET = 'b'.repeat(32) + '-dashboard-test-secret';
const claims: DashboardCredentialClaims = {
  userId: '550e8400-e29b-41d4-a716-446655440000',
  operatorId: '123e4567-e89b-42d3-a456-426614174000',
  memberId: '017f22e2-79b0-7cc3-98c4-dc0c0c07398f',
  sessionId: '9b1e4c7a-2d5f-4a8e-b3c6-1f0d9e8a7b65',
  sessionVersion: 2,
};

describe('signDashboardCredential / verifyDashboardCredential', () => {
  it('round-trips the claims behind the dsh_ prefix', async () => {
    const credential = await signDashboardCredential(claims, SECRET, 300);
    expect(credential).toMatch(/^dsh_[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(await verifyDashboardCredential(credential, SECRET)).toEqual(claims);
  });

  it('refuses another secret, no prefix, an unsigned token and an expired one', async () => {
    const credential = await signDashboardCredential(claims, SECRET, 300);
    expect(await verifyDashboardCredential(credential, `${SECRET}-other`)).toBeNull();
    expect(await verifyDashboardCredential(credential.slice(4), SECRET)).toBeNull();
    const unsigned = new UnsecuredJWT({ op: claims.operatorId, mid: claims.memberId, sid: claims.sessionId, sv: 2 }).setSubject(claims.userId).encode();
    expect(await verifyDashboardCredential(`dsh_${unsigned}`, SECRET)).toBeNull();
    jest.useFakeTimers({ now: Date.now() });
    const short = await signDashboardCredential(claims, SECRET, 60);
    jest.setSystemTime(Date.now() + 61_000);
    expect(await verifyDashboardCredential(short, SECRET)).toBeNull();
    jest.useRealTimers();
  });

  it('is no access token, and an access token is no dashboard credential (audiences differ)', async () => {
    const credential = await signDashboardCredential(claims, SECRET, 300);
    expect(await verifyAccessToken(credential.slice(4), SECRET)).toBeNull();
    const access = await signAccessToken({ ...claims }, SECRET, 300);
    expect(await verifyDashboardCredential(`dsh_${access}`, SECRET)).toBeNull();
  });
});

describe('scope', () => {
  it('the Owner and Admins read and write; a Member reads (GET and HEAD)', () => {
    expect([dashboardScopeOf('owner'), dashboardScopeOf('admin'), dashboardScopeOf('member')]).toEqual(['read write', 'read write', 'read']);
    expect(['GET', 'head', 'POST', 'PUT', 'PATCH', 'DELETE'].map((method) => scopeAllows('read', method))).toEqual([true, true, false, false, false, false]);
    expect(['GET', 'POST', 'DELETE'].every((method) => scopeAllows('read write', method))).toBe(true);
  });
});
