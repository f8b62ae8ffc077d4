import { randomUUID } from 'node:crypto';
import { http } from './http';

export interface TestOperator {
  operatorId: string;
  userId: string;
  email: string;
  password: string;
  accessToken: string;
  refreshToken: string;
}

/** Signs up a fresh organisation (unique email), returning its Owner's session. */
export async function signupOperator(baseUrl: string, name = 'Test Casino'): Promise<TestOperator> {
  const email = `owner-${randomUUID()}@example.test`;
  const password = 'correct-horse-battery';
  const response = await http(`${baseUrl}/auth/v1/signup`, { body: { email, password, organisationName: name } });
  if (response.status !== 201) throw new Error(`signup failed: ${response.status} ${response.text}`);
  const data = response.body.data;
  return {
    operatorId: data.operator.id,
    userId: data.user.id,
    email,
    password,
    accessToken: data.session.access_token,
    refreshToken: data.session.refresh_token,
  };
}

/** Creates an API key for the operator with its Owner's session; returns id and plaintext. */
export async function createApiKey(baseUrl: string, operator: TestOperator, label = 'test'): Promise<{ id: string; key: string }> {
  const response = await http(`${baseUrl}/api-keys`, { token: operator.accessToken, body: { operatorId: operator.operatorId, label } });
  if (response.status !== 201) throw new Error(`create key failed: ${response.status} ${response.text}`);
  return { id: response.body.data.id, key: response.body.data.key };
}
