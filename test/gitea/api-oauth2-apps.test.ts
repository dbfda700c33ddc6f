import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGitea, type GiteaFixtures } from '../helpers/gitea-fixtures';

// Port of Gitea's tests/integration/api_oauth2_apps_test.go: user2 creates, lists, reads,
// updates and deletes an OAuth2 application. Gitea's test turns on the custom scheme my-app
// midway; here a second server has `[oauth2] custom_schemes = my-app` from the start.

let g: GiteaFixtures;
let custom: GiteaFixtures;
beforeAll(async () => {
  g = await startGitea();
  custom = await startGitea({ HEARTH__OAUTH2__CUSTOM_SCHEMES: 'my-app' });
});
afterAll(async () => { await g.stop(); await custom.stop(); });

type App = { id: number; name: string; client_id: string; client_secret: string; confidential_client: boolean; redirect_uris: string[]; created: string };

describe('TestOAuth2Application', () => {
  const body = { name: 'test-app-1', redirect_uris: ['http://www.google.com', 'my-app:foo'], confidential_client: true };

  it('TestOAuth2Application', async () => {
    // testAPICreateOAuth2Application: the custom scheme is refused until configured.
    expect((await g.api('user/applications/oauth2', { method: 'POST', auth: await g.basic('user2'), json: body })).status).toBe(400);
    const made = (await custom.call('user/applications/oauth2', { method: 'POST', auth: await custom.basic('user2'), json: body }, 201)) as App;
    expect(made.name).toBe('test-app-1');
    expect(made.client_secret).toHaveLength(56);
    expect(made.client_id).toHaveLength(36);
    expect(made.confidential_client).toBe(true);
    expect(made.created).toBeTruthy();
    expect(made.redirect_uris).toEqual(body.redirect_uris);

    // testAPIListOAuth2Applications: no secret in the list.
    const list = (await custom.call('user/applications/oauth2', { auth: await custom.tokenAuth('user2', 'read:user') })) as App[];
    expect(list[0]).toMatchObject({ id: made.id, name: made.name, client_id: made.client_id, confidential_client: true, client_secret: '', redirect_uris: body.redirect_uris });

    // testAPIGetOAuth2Application
    const read = (await custom.call(`user/applications/oauth2/${made.id}`, { auth: await custom.tokenAuth('user2', 'read:user') })) as App;
    expect(read).toMatchObject({ name: made.name, client_id: made.client_id, confidential_client: true, client_secret: '', redirect_uris: body.redirect_uris });

    // testAPIUpdateOAuth2Application
    const update = { ...body, redirect_uris: ['https://www.google.com', 'my-app:foo'] };
    const plainApp = (await g.call('user/applications/oauth2', { method: 'POST', auth: await g.basic('user2'), json: { ...body, redirect_uris: ['http://www.google.com'] } }, 201)) as App;
    expect((await g.api(`user/applications/oauth2/${plainApp.id}`, { method: 'PATCH', auth: await g.basic('user2'), json: update })).status).toBe(400);
    const updated = (await custom.call(`user/applications/oauth2/${made.id}`, { method: 'PATCH', auth: await custom.basic('user2'), json: update })) as App;
    expect(updated.redirect_uris).toEqual(update.redirect_uris);
    expect(updated.confidential_client).toBe(true);

    // testAPIDeleteOAuth2Application
    const write = await custom.tokenAuth('user2', 'write:user');
    expect((await custom.api(`user/applications/oauth2/${made.id}`, { method: 'DELETE', auth: write })).status).toBe(204);
    expect((await custom.api(`user/applications/oauth2/${made.id}`, { auth: write })).status).toBe(404);
    expect((await custom.api(`user/applications/oauth2/${made.id}`, { method: 'DELETE', auth: write })).status).toBe(404);
  });
});
