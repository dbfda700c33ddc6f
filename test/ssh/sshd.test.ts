import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepo, tempDir } from '../helpers/git';
import { createUser, json, startTestServer, type TestServer } from '../helpers/server';
import { addDeployKey, addUserKey, makeKey, runCmd, ssh, sshGit, type SshKey } from '../helpers/ssh';
import { canRunSshd, servTemplate, startSshd, type Sshd } from '../helpers/sshd';

// `hearth keys` (AuthorizedKeysCommand) and `hearth serv` (forced command) under Debian's
// OpenSSH sshd, started here: the operator's alternative to the built-in server. Each
// connection starts `hearth keys` (twice: the key's question, then its signature) and `hearth serv`.

type User = { username: string; password: string; id: number };
let s: TestServer;
let sshd: Sshd;
let alice: User;
let aliceKey: SshKey;
let templateDir: string;
const url = (repo: string) => `ssh://${sshd.user}@127.0.0.1:${sshd.port}/alice/${repo}.git`;

describe.skipIf(!canRunSshd())('hearth serv and keys under the system sshd', () => {
  beforeAll(async () => {
    s = await startTestServer();
    const config = path.join(tempDir('hearth-conf-'), 'hearth.toml');
    const port = new URL(s.hearth.config.server.root_url).port;
    const cache = path.resolve(__dirname, '../../node_modules/.cache');
    fs.mkdirSync(cache, { recursive: true });
    templateDir = fs.mkdtempSync(path.join(cache, 'hearth-serv-'));
    fs.writeFileSync(config, [
      '[server]', 'http_addr = "127.0.0.1"', `http_port = ${port}`, `data_dir = "${s.dataDir}"`,
      `ssh_authorized_keys_command_template = "${servTemplate(templateDir)}"`, '',
    ].join('\n'));
    sshd = await startSshd(config);
    alice = await createUser(s, 'alice');
    aliceKey = makeKey('ed25519', 'alice');
    await addUserKey(s, alice, aliceKey, 'alice laptop');
    await createRepo(s, alice, 'code', { auto_init: true });
  }, 60_000);
  afterAll(async () => {
    sshd?.stop();
    fs.rmSync(templateDir, { recursive: true, force: true });
    await s?.stop();
  });

  it('prints the authorized_keys line of a known key, and nothing for an unknown one', async () => {
    const [type, blob] = aliceKey.pub.split(' ');
    const keys = await runCmd(path.join(sshd.dir, 'hearth-keys'), ['-e', 'git', '-u', 'git', '-t', type!, '-k', blob!]);
    expect(keys.code, keys.stderr).toBe(0);
    expect(keys.stdout).toMatch(/^# hearth public key\ncommand=".* --config=\S+ serv key-\d+",no-port-forwarding,no-X11-forwarding,no-agent-forwarding,no-pty,no-user-rc,restrict ssh-ed25519 \S+\n$/);
    const [, strangerBlob] = makeKey().pub.split(' ');
    const none = await runCmd(path.join(sshd.dir, 'hearth-keys'), ['-e', 'git', '-u', 'git', '-t', 'ssh-ed25519', '-k', strangerBlob!]);
    expect(none.code).toBe(1);
    expect(none.stdout).toBe('');
    const otherUser = await runCmd(path.join(sshd.dir, 'hearth-keys'), ['-e', 'git', '-u', 'root2', '-t', type!, '-k', blob!]);
    expect(otherUser.code).toBe(1);
  });

  it('greets, clones, pushes (moving the branch in the API) and refuses as the built-in server does', async () => {
    const hello = await ssh(sshd.port, aliceKey, [], [], sshd.user);
    expect(hello.code, `${hello.stderr}\n${sshd.log()}`).toBe(0);
    expect(hello.stderr).toContain("Hi there, alice! You've successfully authenticated with the key named alice laptop");

    const dir = tempDir();
    const c = await sshGit(sshd.port, aliceKey, dir, ['clone', '-q', url('code'), 'w']);
    expect(c.code, c.stderr).toBe(0);
    const wt = path.join(dir, 'w');
    fs.writeFileSync(path.join(wt, 'x.txt'), 'x\n');
    await runCmd('git', ['add', '.'], { cwd: wt });
    await runCmd('git', ['commit', '-q', '-m', 'x'], { cwd: wt });
    for (const protocol of [0, 2] as const) {
      fs.appendFileSync(path.join(wt, 'x.txt'), `v${protocol}\n`);
      await runCmd('git', ['commit', '-q', '-am', `v${protocol}`], { cwd: wt });
      const push = await sshGit(sshd.port, aliceKey, wt, ['push', '-q', 'origin', 'main'], { protocol });
      expect(push.code, push.stderr).toBe(0);
    }
    const head = (await runCmd('git', ['rev-parse', 'HEAD'], { cwd: wt })).stdout.trim();
    const branch = await json(await s.request('api/v1/repos/alice/code/branches/main', { auth: { basic: [alice.username, alice.password] } }));
    expect(branch.commit.id).toBe(head);

    const missing = await sshGit(sshd.port, aliceKey, dir, ['clone', url('nothing'), 'm']);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain('Hearth: Cannot find repository: alice/nothing');

    const ro = makeKey('ed25519', 'ro');
    await addDeployKey(s, alice, 'alice', 'code', ro, true, 'ro deploy');
    const refused = await sshGit(sshd.port, ro, wt, ['push', 'origin', 'HEAD:refs/heads/other']);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('Hearth: the deploy key is read-only');
  }, 120_000);

  it('refuses a key hearth does not know', async () => {
    const r = await ssh(sshd.port, makeKey(), [], [], sshd.user);
    expect(r.code).toBe(255);
    expect(r.stderr).toContain('Permission denied (publickey)');
  });
});
