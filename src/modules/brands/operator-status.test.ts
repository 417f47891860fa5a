// GET /admin/status: the doctor's rows for an Admin of a root brand; refused to everyone else, and no secret in it.
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.js';
import { addMembership, bearer, createBrand, createUser, tokenFor } from '../../../test/helpers/factories.js';

describe('GET /admin/status', () => {
  const t = useTestApp({ config: { smtpUrl: 'smtp://mailer:hunter2@127.0.0.1:1', chromiumPath: null } });

  const statusAs = async (acl: string[], parentOf?: string) => {
    const root = await createBrand(t.deps);
    const brand = parentOf === undefined ? root : await createBrand(t.deps, { parent: root.id });
    const user = await createUser(t.deps);
    await addMembership(t.deps, user.id, brand.id, acl);
    const token = await tokenFor(t.deps, user.id);
    return t.app.inject({ method: 'GET', url: '/admin/status', headers: bearer(token) });
  };

  it('answers an Admin of a root brand with a row per feature, the relay broken, its password hidden', async () => {
    const res = await statusAs(['Admin']);
    expect(res.statusCode).toBe(200);
    const rows = (res.json() as { data: { feature: string; state: string; detail: string }[] }).data;
    expect(rows.find((row) => row.feature === 'database')?.state).toBe('ready');
    expect(rows.find((row) => row.feature === 'mail')).toMatchObject({ state: 'broken' });
    expect(rows.find((row) => row.feature === 'print rendering')?.state).toBe('off');
    expect(res.body).not.toContain('hunter2');
  });

  it('refuses an Admin of a brand below the root, a root member without Admin, and no token', async () => {
    expect((await statusAs(['Admin'], 'child')).statusCode).toBe(403);
    expect((await statusAs(['CRM', 'Marketing', 'Deals'])).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/admin/status' })).statusCode).toBe(401);
  });
});
