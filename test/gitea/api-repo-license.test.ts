import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGitea, type GiteaFixtures } from '../helpers/gitea-fixtures';

// Port of Gitea's tests/integration/api_repo_license_test.go: a LICENSE committed on the
// default branch is detected (BSD-2-Clause), and changing the default branch to one whose
// LICENSE is MIT changes what /licenses answers. Gitea commits through its web editor; the
// contents API here. Detection runs in the background: the test polls, as Gitea's sleeps.

let g: GiteaFixtures;
beforeAll(async () => { g = await startGitea(); });
afterAll(async () => { await g.stop(); });

const bsd2 = `
Copyright (c) 2024 Gitea 

Redistribution and use in source and binary forms, with or without modification, are permitted provided that the following conditions are met:

1. Redistributions of source code must retain the above copyright notice, this list of conditions and the following disclaimer.

2. Redistributions in binary form must reproduce the above copyright notice, this list of conditions and the following disclaimer in the documentation and/or other materials provided with the distribution.

THIS SOFTWARE IS PROVIDED BY THE COPYRIGHT HOLDERS AND CONTRIBUTORS "AS IS" AND ANY EXPRESS OR IMPLIED WARRANTIES, INCLUDING, BUT NOT LIMITED TO, THE IMPLIED WARRANTIES OF MERCHANTABILITY AND FITNESS FOR A PARTICULAR PURPOSE ARE DISCLAIMED. IN NO EVENT SHALL THE COPYRIGHT HOLDER OR CONTRIBUTORS BE LIABLE FOR ANY DIRECT, INDIRECT, INCIDENTAL, SPECIAL, EXEMPLARY, OR CONSEQUENTIAL DAMAGES (INCLUDING, BUT NOT LIMITED TO, PROCUREMENT OF SUBSTITUTE GOODS OR SERVICES; LOSS OF USE, DATA, OR PROFITS; OR BUSINESS INTERRUPTION) HOWEVER CAUSED AND ON ANY THEORY OF LIABILITY, WHETHER IN CONTRACT, STRICT LIABILITY, OR TORT (INCLUDING NEGLIGENCE OR OTHERWISE) ARISING IN ANY WAY OUT OF THE USE OF THIS SOFTWARE, EVEN IF ADVISED OF THE POSSIBILITY OF SUCH DAMAGE.
`;

/** Gitea's checkRepoLicense, waiting for the background detection to land. */
async function licensesBecome(want: string[]): Promise<void> {
  let got: string[] = [];
  for (let i = 0; i < 100; i++) {
    got = (await g.call('repos/user2/repo1/licenses')) as string[];
    if (JSON.stringify([...got].sort()) === JSON.stringify([...want].sort())) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  expect([...got].sort()).toEqual([...want].sort());
}

describe('api_repo_license_test', () => {
  it('TestAPIRepoLicense', async () => {
    await g.repo1();
    const user2 = await g.basic('user2');
    const mit = ((await g.call('licenses/MIT')).body as string).replace('<year>', '2024').replace('<copyright holders>', 'Gitea');
    // Gitea's fixture repo1 has a branch DefaultBranch whose LICENSE is MIT.
    await g.call('repos/user2/repo1/contents/LICENSE', {
      method: 'POST', auth: user2, json: { content: Buffer.from(mit).toString('base64'), branch: 'master', new_branch: 'DefaultBranch' },
    }, 201);

    await g.call('repos/user2/repo1/contents/LICENSE', {
      method: 'POST', auth: user2, json: { content: Buffer.from(bsd2).toString('base64'), branch: 'master' },
    }, 201);
    await licensesBecome(['BSD-2-Clause']);

    const token = await g.tokenAuth('user2', 'write:repository');
    await g.call('repos/user2/repo1', { method: 'PATCH', auth: token, json: { default_branch: 'DefaultBranch' } });
    await licensesBecome(['MIT']);
  });
});
