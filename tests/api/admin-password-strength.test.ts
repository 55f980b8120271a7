import { describe, expect, it } from 'vitest';
import { SCRYPT_PARAMS } from '../../src/server/admin-password.ts';
import { createTestContext, jsonRequest, TEST_ADMIN_PASSWORD } from '../setup/test-app.ts';

// The other API tests hash the admin password at a lower cost (tests/setup/test-app.ts,
// TEST_SCRYPT_PARAMS) so that their many sign-ins stay quick; here it is production's.
const ctx = await createTestContext({}, { productionPasswordHash: true });

describe('admin sign-in at production strength', () => {
  it('stores ADMIN_PASSWORD as scrypt at N=2^17, r=8, p=1', () => {
    const [scheme, n, r, p] = ctx.deps.admin!.passwordHash.split('$');
    expect([scheme, Number(n), Number(r), Number(p)]).toEqual(['scrypt', SCRYPT_PARAMS.N, SCRYPT_PARAMS.r, SCRYPT_PARAMS.p]);
    expect(SCRYPT_PARAMS).toEqual({ N: 2 ** 17, r: 8, p: 1 });
  });

  it('signs in with the right password and refuses a wrong one', async () => {
    expect((await ctx.app.request('/api/admin/login', jsonRequest({ password: `${TEST_ADMIN_PASSWORD}-typo` }))).status).toBe(401);
    const response = await ctx.app.request('/api/admin/login', jsonRequest({ password: TEST_ADMIN_PASSWORD }));
    expect(response.status).toBe(204);
    expect(response.headers.get('set-cookie')).toMatch(/HttpOnly/i);
  }, 60_000);
});
