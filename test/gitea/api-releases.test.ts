import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGitea, type GiteaFixtures } from '../helpers/gitea-fixtures';
import { collaborator, once, repo } from '../helpers/gitea-extra';

// Port of Gitea's tests/integration/api_releases_test.go. repo1's releases are Gitea's
// fixture ones: v1.1 "testing-release", a draft "draft-release" and a pre-release; user40 writes
// to repo1. Attachments may be 1 MiB here, as TestAPIUploadAssetRelease mocks.

let g: GiteaFixtures;
beforeAll(async () => { g = await startGitea({ HEARTH__ATTACHMENT__MAX_SIZE: '1' }); });
afterAll(async () => { await g.stop(); });

type Release = { id: number; tag_name: string; name: string; body: string; draft: boolean; prerelease: boolean; upload_url: string; target_commitish: string };

/** user2/repo1 with Gitea's three releases; their ids by title. */
function world() {
  return once(g, 'releases', async () => {
    await repo(g, 'user2', 'repo1');
    await collaborator(g, 'user2', 'repo1', 'user40', 'write');
    const auth = await g.basic('user2');
    const make = async (json: object) => ((await g.call('repos/user2/repo1/releases', { method: 'POST', auth, json }, 201)) as Release).id;
    return {
      published: await make({ tag_name: 'v1.1', name: 'testing-release', body: 'testing' }),
      draft: await make({ tag_name: 'draft-release', name: 'draft-release', draft: true }),
      pre: await make({ tag_name: 'v1.0', name: 'pre-release', prerelease: true }),
    };
  });
}

/** Gitea's createNewReleaseUsingAPI: the release made, then read back. */
async function createRelease(tag: string, target: string, title: string, note: string): Promise<Release> {
  const auth = await g.tokenAuth('user2', 'write:repository');
  const made = (await g.call('repos/user2/repo1/releases', {
    method: 'POST', auth, json: { tag_name: tag, name: title, body: note, draft: false, prerelease: false, target_commitish: target },
  }, 201)) as Release;
  expect(((await g.call(`repos/user2/repo1/releases/${made.id}`, { auth })) as Release).body).toBe(note);
  return made;
}

/** Removes what a test made, so that the next finds repo1 as the fixture has it. */
async function dropRelease(tag: string): Promise<void> {
  const auth = await g.basic('user2');
  await g.api(`repos/user2/repo1/releases/tags/${tag}`, { method: 'DELETE', auth });
  await g.api(`repos/user2/repo1/tags/${tag}`, { method: 'DELETE', auth });
}

describe('api_releases_test', () => {
  it('TestAPIListReleases', async () => {
    const ids = await world();
    const auth = await g.tokenAuth('user2', 'read:repository');
    const list = (await g.call('repos/user2/repo1/releases', { auth })) as Release[];
    expect(list.map((r) => r.id).sort()).toEqual([ids.published, ids.draft, ids.pre].sort());
    for (const r of list) {
      expect(r.upload_url.endsWith(`/api/v1/repos/user2/repo1/releases/${r.id}/assets`), r.upload_url).toBe(true);
      expect([r.draft, r.prerelease]).toEqual(r.id === ids.draft ? [true, false] : r.id === ids.pre ? [false, true] : [false, false]);
    }
    const count = async (query: string, signed: boolean) =>
      ((await g.call(`repos/user2/repo1/releases?${query}`, { auth: signed ? auth : undefined })) as Release[]).length;
    expect(await count('draft=true', false), 'anonymous callers see no draft').toBe(0);
    expect(await count('draft=true', true), 'the owner sees the draft').toBe(1);
    expect(await count('draft=false', true), 'drafts left out').toBe(2);
    expect(await count('draft=false&pre-release=false', true), 'drafts and pre-releases left out').toBe(1);
    expect(await count('pre-release=true', true), 'pre-releases only').toBe(1);
    expect(await count('draft=true&pre-release=true', true), 'no draft pre-release').toBe(0);
  });

  it('TestAPICreateAndUpdateRelease', async () => {
    await world();
    const auth = await g.tokenAuth('user2', 'write:repository');
    const tag = await g.call('repos/user2/repo1/tags', { method: 'POST', auth, json: { tag_name: 'v0.0.1', target: 'master' } }, 201);
    try {
      const made = await createRelease('v0.0.1', tag.commit.sha, 'v0.0.1', 'test');
      const url = `repos/user2/repo1/releases/${made.id}`;
      const read = (await g.call(url, { auth })) as Release;
      expect(read).toMatchObject({ tag_name: made.tag_name, name: made.name, body: made.body });
      const edited = (await g.call(url, {
        method: 'PATCH', auth,
        json: { tag_name: read.tag_name, name: read.name, body: 'updated', draft: read.draft, prerelease: read.prerelease, target_commitish: read.target_commitish },
      })) as Release;
      expect(edited.body).toBe('updated');
      expect(((await g.call(url, { auth })) as Release).body).toBe('updated');
    } finally {
      await dropRelease('v0.0.1');
    }
  });

  it('TestAPICreateProtectedTagRelease', async () => {
    await once(g, 'repo4', async () => {
      await repo(g, 'user5', 'repo4');
      await collaborator(g, 'user5', 'repo4', 'user4', 'write');
      // Gitea's fixture rule allows no one; its API (as hearth's) wants someone named: the owner.
      await g.call('repos/user5/repo4/tag_protections', {
        method: 'POST', auth: await g.basic('user5'), json: { name_pattern: '/v.+/', whitelist_usernames: ['user5'] },
      }, 201);
    });
    const master = await g.call('repos/user5/repo4/branches/master', { auth: await g.basic('user5') });
    await g.call('repos/user5/repo4/releases', {
      method: 'POST', auth: await g.tokenAuth('user4', 'write:repository'),
      json: { tag_name: 'v0.0.1', name: 'v0.0.1', draft: false, prerelease: false, target_commitish: master.commit.id },
    }, 422);
  });

  it('TestAPICreateReleaseToDefaultBranch', async () => {
    await world();
    try {
      await createRelease('v0.0.1', '', 'v0.0.1', 'test');
    } finally {
      await dropRelease('v0.0.1');
    }
  });

  it('TestAPICreateReleaseToDefaultBranchOnExistingTag', async () => {
    await world();
    await g.call('repos/user2/repo1/tags', { method: 'POST', auth: await g.basic('user2'), json: { tag_name: 'v0.0.1', target: 'master' } }, 201);
    try {
      await createRelease('v0.0.1', '', 'v0.0.1', 'test');
    } finally {
      await dropRelease('v0.0.1');
    }
  });

  it('TestAPICreateReleaseGivenInvalidTarget', async () => {
    await world();
    await g.call('repos/user2/repo1/releases', {
      method: 'POST', auth: await g.tokenAuth('user2', 'write:repository'),
      json: { tag_name: 'i-point-to-an-invalid-target', name: 'Invalid Target', target_commitish: 'invalid-target' },
    }, 404);
  });

  it('TestAPIGetLatestRelease', async () => {
    await world();
    expect(((await g.call('repos/user2/repo1/releases/latest')) as Release).name).toBe('testing-release');
  });

  it('TestAPIGetReleaseByTag', async () => {
    await world();
    expect(((await g.call('repos/user2/repo1/releases/tags/v1.1')) as Release).name).toBe('testing-release');
    const missing = await g.call('repos/user2/repo1/releases/tags/nonexistingtag', {}, 404);
    expect(missing.message).toBeTruthy();
  });

  it('TestAPIGetDraftReleaseByTag', async () => {
    await world();
    const url = 'repos/user2/repo1/releases/tags/draft-release';
    // Not to anonymous callers.
    await g.call(url, {}, 404);
    // To user40, who writes to the repository.
    const auth40 = await g.tokenAuth('user40', 'read:repository');
    expect(((await g.call(url, { auth: auth40 })) as Release).name).toBe('draft-release');
    // No longer once user40 lost that access; still to user2, its publisher.
    await g.call('repos/user2/repo1/collaborators/user40', { method: 'DELETE', auth: await g.basic('user2') }, 204);
    try {
      await g.call(url, { auth: auth40 }, 404);
      expect(((await g.call(url, { auth: await g.tokenAuth('user2', 'read:repository') })) as Release).name).toBe('draft-release');
    } finally {
      await collaborator(g, 'user2', 'repo1', 'user40', 'write');
    }
  });

  it('TestAPIDeleteReleaseByTagName', async () => {
    await world();
    const auth = await g.tokenAuth('user2', 'write:repository');
    await createRelease('release-tag', '', 'Release Tag', 'test');
    await g.call('repos/user2/repo1/releases/tags/release-tag', { method: 'DELETE', auth }, 204);
    // It is gone.
    await g.call('repos/user2/repo1/releases/tags/release-tag', { method: 'DELETE', auth }, 404);
    // Its tag is left, and may be deleted too.
    await g.call('repos/user2/repo1/tags/release-tag', { method: 'DELETE', auth }, 204);
  });

  describe('TestAPIUploadAssetRelease', () => {
    // 104 bytes, as Gitea's generated PNG; and 2 MiB, above the 1 MiB allowed.
    const image = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(96, 7)]);
    const large = Buffer.alloc(2 * 1024 * 1024, ' ');
    const assets = () => once(g, 'asset-release', async () => {
      await world();
      const made = await createRelease('asset-tag', '', 'Release Tag', 'test');
      return `repos/user2/repo1/releases/${made.id}/assets`;
    });
    const multipart = (buf: Buffer) => {
      const form = new FormData();
      form.append('attachment', new Blob([buf], { type: 'image/png' }), 'image.png');
      return form;
    };

    it('TestAPIUploadAssetRelease/multipart/form-data', async () => {
      const url = await assets();
      const auth = await g.tokenAuth('user2', 'write:repository');
      // Gitea's step uploads the image whatever buffer it is given; the large one is tried here.
      await g.call(url, { method: 'POST', auth, body: multipart(large) }, 413);
      const named = await g.call(url, { method: 'POST', auth, body: multipart(image) }, 201);
      expect(named).toMatchObject({ name: 'image.png', size: 104 });
      const renamed = await g.call(`${url}?name=test-asset`, { method: 'POST', auth, body: multipart(image) }, 201);
      expect(renamed).toMatchObject({ name: 'test-asset', size: 104 });
    });

    it('TestAPIUploadAssetRelease/application/octet-stream', async () => {
      const url = await assets();
      const auth = await g.tokenAuth('user2', 'write:repository');
      const stream = (query: string, buf: Buffer, status: number) =>
        g.call(`${url}${query}`, { method: 'POST', auth, body: buf, headers: { 'Content-Type': 'application/octet-stream' } }, status);
      // A stream needs its name.
      await stream('', image, 400);
      await stream('?name=stream.bin', large, 413);
      expect(await stream('?name=stream.bin', image, 201)).toMatchObject({ name: 'stream.bin', size: 104 });
    });
  });
});
