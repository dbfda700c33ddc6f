import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepo } from '../helpers/git';
import { as, ok, startTestServer, type TestServer } from '../helpers/server';
import { ownerAndOther, type WebUser } from '../helpers/web-client';

// A pending transfer's banner follows its recipient through every repository page group, not
// only the reading pages: the settings, the release forms, the fork form, the file editor and
// the runners' page; never on the transfer page itself (it is the answer) nor for the sender.

let s: TestServer;
let alice: WebUser;
let bob: WebUser;

const banner = /<div class="flash" role="status">alice wants to transfer this repository to bob\. <a href="[^"]*alice\/parcel\/transfer">/;
const api = (p: string, method: string, json?: object, who: WebUser = alice) => s.request(`api/v1/${p}`, { method, auth: as(who), ...(json ? { json } : {}) });

beforeAll(async () => {
  s = await startTestServer();
  ({ alice, bob } = await ownerAndOther(s));
  await createRepo(s, alice, 'parcel', { auto_init: true });
  // bob administers it, so the settings pages are his to see too.
  await ok(await api('repos/alice/parcel/collaborators/bob', 'PUT', { permission: 'admin' }), 204);
});
afterAll(async () => { await s.stop(); });

const PAGES = [
  'alice/parcel', 'alice/parcel/settings', 'alice/parcel/settings/hooks', 'alice/parcel/settings/collaboration',
  'alice/parcel/settings/actions/runners', 'alice/parcel/releases/new', 'alice/parcel/fork', 'alice/parcel/_new/main',
];

describe('the pending transfer banner', () => {
  it('shows on every repository page group of the recipient, and nowhere once answered', async () => {
    for (const p of PAGES) expect(await (await bob.web.get(p)).text(), p).not.toContain('wants to transfer');
    await ok(await api('repos/alice/parcel/transfer', 'POST', { new_owner: 'bob' }), 201);
    for (const p of PAGES) {
      const res = await bob.web.get(p);
      expect(res.status, p).toBe(200);
      expect(await res.text(), p).toMatch(banner);
    }
    expect(await (await bob.web.get('alice/parcel/transfer')).text()).not.toMatch(banner);
    for (const p of ['alice/parcel/settings', 'alice/parcel/releases/new']) expect(await (await alice.web.get(p)).text(), p).not.toContain('wants to transfer');
    await ok(await api('repos/alice/parcel/transfer/reject', 'POST', undefined, bob), 200);
    for (const p of PAGES) expect(await (await bob.web.get(p)).text(), p).not.toContain('wants to transfer');
  });
});
