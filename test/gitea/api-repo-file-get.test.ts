import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { startGitea, type GiteaFixtures } from '../helpers/gitea-fixtures';
import { repo } from '../helpers/gitea-extra';

// Port of Gitea's tests/integration/api_repo_file_get_test.go: /media/{path} answers a plain
// file's bytes, and for an LFS pointer the object it points at. Gitea pushes with git-lfs; here
// the object goes in through the LFS upload endpoint and the pointer through the contents API.

let g: GiteaFixtures;
beforeAll(async () => { g = await startGitea(); });
afterAll(async () => { await g.stop(); });

describe('api_repo_file_get_test', () => {
  it('TestAPIGetRawFileOrLFS', async () => {
    await g.repo1();
    const readme = await g.call('repos/user2/repo1/raw/README.md');
    const raw = await g.api('repos/user2/repo1/media/README.md');
    expect(raw.status).toBe(200);
    expect(await raw.text()).toBe(readme);

    await repo(g, 'user2', 'repo-lfs-test');
    const big = Buffer.alloc(1024, 'x').toString() + 'little end\n';
    const oid = createHash('sha256').update(big).digest('hex');
    const put = await g.s.request(`user2/repo-lfs-test.git/info/lfs/objects/${oid}/${big.length}`, { method: 'PUT', auth: await g.basic('user2'), body: big });
    expect(put.status).toBe(200);
    const pointer = `version https://git-lfs.github.com/spec/v1\noid sha256:${oid}\nsize ${big.length}\n`;
    await g.call('repos/user2/repo-lfs-test/contents/little.bin', {
      method: 'POST', auth: await g.basic('user2'), json: { content: Buffer.from(pointer).toString('base64'), message: 'add an LFS pointer' },
    }, 201);
    const media = await g.api('repos/user2/repo-lfs-test/media/little.bin');
    expect(media.status).toBe(200);
    const body = await media.text();
    expect(body.length).toBe(big.length);
    expect(body).toBe(big);
    // /raw keeps answering the pointer itself.
    expect(await (await g.api('repos/user2/repo-lfs-test/raw/little.bin')).text()).toBe(pointer);
  });
});
