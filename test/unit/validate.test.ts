import { z } from 'zod';
import { AppError } from '../../api/errors';
import { defaultValidationError, describeIssues } from '../../api/middleware/validate';

function issuesOf(schema: z.ZodType, input: unknown, part?: 'body' | 'query' | 'params') {
  const result = schema.safeParse(input);
  if (result.success) throw new Error('expected the schema to reject the input');
  return describeIssues(result.error, input, part);
}

const Signup = z.object({ email: z.email(), password: z.string().min(8) });

describe('describeIssues', () => {
  it('reports absent required fields as missing', () => {
    expect(issuesOf(Signup, {})).toEqual({
      missing: ['email', 'password'],
      problems: [
        { field: 'email', message: 'is required' },
        { field: 'password', message: 'is required' },
      ],
    });
  });

  it('reports present but invalid fields as problems, not missing', () => {
    const { missing, problems } = issuesOf(Signup, { email: 'x', password: 'short' });
    expect(missing).toEqual([]);
    expect(problems.map((problem) => problem.field)).toEqual(['email', 'password']);
    for (const problem of problems) expect(problem.message).not.toBe('is required');
  });

  it('does not count a wrong-typed (null) field as missing', () => {
    const { missing, problems } = issuesOf(Signup, { email: null, password: 'long enough' });
    expect(missing).toEqual([]);
    expect(problems).toHaveLength(1);
    expect(problems[0]?.field).toBe('email');
    expect(problems[0]?.message).not.toBe('is required');
  });

  it('joins nested paths with dots', () => {
    const schema = z.object({ user: z.object({ profile: z.object({ name: z.string() }) }) });
    expect(issuesOf(schema, { user: { profile: {} } })).toEqual({
      missing: ['user.profile.name'],
      problems: [{ field: 'user.profile.name', message: 'is required' }],
    });
    expect(issuesOf(schema, { user: {} }).missing).toEqual(['user.profile']);
  });

  it('includes array indices in the field path', () => {
    const schema = z.object({ tags: z.array(z.string()) });
    const { missing, problems } = issuesOf(schema, { tags: ['ok', 5] });
    expect(missing).toEqual([]);
    expect(problems.map((problem) => problem.field)).toEqual(['tags.1']);
  });

  it('names the request part for a root-level issue, defaulting to body', () => {
    expect(issuesOf(Signup, undefined).problems[0]?.field).toBe('body');
    expect(issuesOf(Signup, 'a string', 'query').problems[0]?.field).toBe('query');
    // A missing body is a root issue, never a "missing field".
    expect(issuesOf(Signup, undefined).missing).toEqual([]);
  });
});

describe('defaultValidationError', () => {
  it('gives MISSING_FIELDS (400) when only required fields are absent', () => {
    const error = defaultValidationError(issuesOf(Signup, {}));
    expect(error).toBeInstanceOf(AppError);
    expect(error.status).toBe(400);
    expect(error.code).toBe('MISSING_FIELDS');
    expect(error.message).toBe('Missing required fields: email, password');
    expect(error.options.details).toEqual([
      { field: 'email', message: 'is required' },
      { field: 'password', message: 'is required' },
    ]);
  });

  it('gives VALIDATION_FAILED (400) naming every invalid field', () => {
    const error = defaultValidationError(issuesOf(Signup, { email: 'x', password: 'short' }));
    expect(error.status).toBe(400);
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.message).toMatch(/^Invalid input: /);
    expect(error.message).toContain('email: ');
    expect(error.message).toContain('password: ');
    const details = error.options.details as { field: string; message: string }[];
    expect(details.map((detail) => detail.field)).toEqual(['email', 'password']);
  });

  it('gives VALIDATION_FAILED when missing and invalid fields are mixed', () => {
    const error = defaultValidationError(issuesOf(Signup, { email: 'x' }));
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.message).toContain('email: ');
    expect(error.message).toContain('password: is required');
    expect(error.options.details).toHaveLength(2);
  });

  it('gives VALIDATION_FAILED for an empty problem list', () => {
    const error = defaultValidationError({ missing: [], problems: [] });
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.status).toBe(400);
  });
});
