import { createUser, ok, type TestServer } from './server';

/** A second site admin with a password that need not change (the first admin's must). */
export async function createSiteAdmin(s: TestServer, name = 'boss'): Promise<{ username: string; password: string; id: number }> {
  const u = await createUser(s, name);
  await ok(await s.request(`api/v1/admin/users/${name}`, {
    method: 'PATCH', auth: { basic: [s.admin.username, s.admin.password] }, json: { admin: true, login_name: name, source_id: 0 },
  }));
  return u;
}
