import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createToken, createUser, startTestServer, type TestServer } from '../helpers/server';

// Gitea's Maven registry: /api/packages/{owner}/maven/{group/path}/{artifactId}/{version}/{file},
// deployed and fetched with curl as the issue describes (`curl -u user:token -T file URL`).

const run = promisify(execFile);
let s: TestServer;
let tmp: string;
let alice: { username: string; password: string; id: number };
let token: string;
const GROUP = 'io/hearth/demo';
const root = (owner: string) => `api/packages/${owner}/maven/${GROUP}/widget`;
const sha = (alg: string, data: string | Buffer) => crypto.createHash(alg).update(data).digest('hex');

const pom = (version: string, extra = '') => `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
  <modelVersion>4.0.0</modelVersion>
  <!-- a comment with <tags> -->
  <groupId>io.hearth.demo</groupId>
  <artifactId>widget</artifactId>
  <version>${version}</version>
  <name>Widget &amp; Co</name>
  <description><![CDATA[A <small> widget]]></description>
  <url>https://example.com/widget</url>
  <licenses><license><name>MIT</name></license></licenses>
  <dependencies>
    <dependency><groupId>org.example</groupId><artifactId>lib</artifactId><version>2.0</version><scope>compile</scope></dependency>
  </dependencies>${extra}
</project>
`;

/** curl as a Maven user would: `-u user:token -T file URL` (PUT), prints the status. */
async function curlPut(file: string, rest: string, owner = alice.username): Promise<number> {
  const { stdout } = await run('curl', ['-sS', '-o', '/dev/null', '-w', '%{http_code}', '-u', `${alice.username}:${token}`, '-T', file, `${s.hearth.config.server.root_url}${root(owner)}/${rest}`]);
  return Number(stdout);
}
async function curlGet(rest: string, out: string): Promise<number> {
  const { stdout } = await run('curl', ['-sS', '-o', out, '-w', '%{http_code}', '-u', `${alice.username}:${token}`, `${s.hearth.config.server.root_url}${root(alice.username)}/${rest}`]);
  return Number(stdout);
}
const write = (name: string, data: string | Buffer) => { const f = path.join(tmp, name); fs.writeFileSync(f, data); return f; };
const get = (rest: string, owner = alice.username) => s.request(`${root(owner)}/${rest}`, { auth: as(alice) });
const put = (rest: string, body: string, owner = alice.username) => s.request(`${root(owner)}/${rest}`, { method: 'PUT', body, auth: as(alice) });

beforeAll(async () => {
  s = await startTestServer();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-maven-'));
  alice = await createUser(s, 'mvn-alice');
  token = await createToken(s, alice, ['write:package']);
});
afterAll(async () => {
  await s.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('maven registry', () => {
  const jar = crypto.randomBytes(64 * 1024);

  it('deploys a jar, its pom and their checksums with curl, and downloads the same bytes', async () => {
    const jarFile = write('widget-1.0.0.jar', jar);
    const pomFile = write('widget-1.0.0.pom', pom('1.0.0'));
    expect(await curlPut(jarFile, '1.0.0/widget-1.0.0.jar')).toBe(201);
    for (const alg of ['md5', 'sha1', 'sha256', 'sha512']) {
      expect(await curlPut(write(`j.${alg}`, sha(alg, jar)), `1.0.0/widget-1.0.0.jar.${alg}`)).toBe(200);
    }
    expect(await curlPut(pomFile, '1.0.0/widget-1.0.0.pom')).toBe(201);
    expect(await curlPut(write('p.sha1', sha('sha1', pom('1.0.0'))), '1.0.0/widget-1.0.0.pom.sha1')).toBe(200);
    // The client uploads the artifact's maven-metadata.xml too: ignored (generated), 200.
    expect(await curlPut(write('m.xml', '<metadata/>'), 'maven-metadata.xml')).toBe(200);
    const out = path.join(tmp, 'down.jar');
    expect(await curlGet('1.0.0/widget-1.0.0.jar', out)).toBe(200);
    expect(fs.readFileSync(out).equals(jar)).toBe(true);
  });

  it('serves files with Gitea\'s content types, HEAD without a body, and stored checksums', async () => {
    const head = await s.request(`${root(alice.username)}/1.0.0/widget-1.0.0.jar`, { method: 'HEAD', auth: as(alice) });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('application/java-archive');
    expect(head.headers.get('content-length')).toBe(String(jar.length));
    expect(head.headers.get('last-modified')).toBeTruthy();
    const p = await get('1.0.0/widget-1.0.0.pom');
    expect(p.headers.get('content-type')).toBe('text/xml');
    expect(await p.text()).toBe(pom('1.0.0'));
    for (const alg of ['md5', 'sha1', 'sha256', 'sha512']) {
      const res = await get(`1.0.0/widget-1.0.0.jar.${alg}`);
      expect(res.status).toBe(200);
      expect(await res.text()).toBe(sha(alg, jar));
    }
    expect((await get('9.9.9/widget-1.0.0.jar')).status).toBe(404);
    expect((await get('1.0.0/missing.jar')).status).toBe(404);
  });

  it('stores the pom\'s metadata on the version and counts downloads of the pom (the lead file)', async () => {
    const row = await s.hearth.db.selectFrom('package_version as v').innerJoin('package as p', 'p.id', 'v.package_id')
      .select(['p.name', 'v.metadata_json', 'v.download_count']).where('v.version', '=', '1.0.0').where('p.type', '=', 'maven')
      .executeTakeFirstOrThrow();
    expect(row.name).toBe('io.hearth.demo:widget');
    expect(JSON.parse(row.metadata_json)).toEqual({
      group_id: 'io.hearth.demo', artifact_id: 'widget', name: 'Widget & Co', description: 'A <small> widget',
      project_url: 'https://example.com/widget', licenses: ['MIT'],
      dependencies: [{ group_id: 'org.example', artifact_id: 'lib', version: '2.0' }],
    });
    expect(row.download_count).toBe(1);
  });

  it('refuses a checksum that does not match the stored file with 400 "hash mismatch"', async () => {
    expect(await curlPut(write('bad.sha1', sha('sha1', 'other')), '1.0.0/widget-1.0.0.jar.sha1')).toBe(400);
    const res = await put('1.0.0/widget-1.0.0.jar.md5', 'nope');
    expect(res.status).toBe(400);
    expect(await res.text()).toBe('hash mismatch');
    expect((await put('1.0.0/missing.jar.sha1', 'x')).status).toBe(404);
  });

  it('refuses the same file again with 409 (Gitea 1.25) and bad coordinates with 400', async () => {
    expect((await put('1.0.0/widget-1.0.0.jar', 'again')).status).toBe(409);
    expect((await s.request(`api/packages/${alice.username}/maven/only/file.jar`, { method: 'PUT', body: 'x', auth: as(alice) })).status).toBe(400);
    expect((await s.request(`api/packages/${alice.username}/maven/a/b/1%3A0/x.jar`, { method: 'PUT', body: 'x', auth: as(alice) })).status).toBe(400);
    const badPom = await put('2.0.0/widget-2.0.0.pom', '<project><groupId>x</project>');
    expect(badPom.status).toBe(400);
    expect((await get('2.0.0/widget-2.0.0.pom')).status).toBe(404);
  });

  it('generates maven-metadata.xml with release, latest and versions, and its checksums', async () => {
    const res = await get('maven-metadata.xml');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/xml');
    expect(res.headers.get('last-modified')).toBeTruthy();
    const body = await res.text();
    expect(body).toBe('<?xml version="1.0" encoding="UTF-8"?>\n<metadata><groupId>io.hearth.demo</groupId><artifactId>widget</artifactId>'
      + '<versioning><release>1.0.0</release><latest>1.0.0</latest><versions><version>1.0.0</version></versions></versioning></metadata>');
    for (const alg of ['md5', 'sha1', 'sha256', 'sha512']) {
      expect(await (await get(`maven-metadata.xml.${alg}`)).text()).toBe(sha(alg, body));
    }
    expect((await s.request(`api/packages/${alice.username}/maven/io/hearth/none/maven-metadata.xml`, { auth: as(alice) })).status).toBe(404);
  });

  it('deploys a SNAPSHOT: timestamped files and the version\'s own maven-metadata.xml, overwritten by each deploy', async () => {
    const v = '1.1.0-SNAPSHOT';
    const stamped = 'widget-1.1.0-20260101.120000-1';
    expect(await curlPut(write('s.jar', 'snap'), `${v}/${stamped}.jar`)).toBe(201);
    expect(await curlPut(write('s.pom', pom(v)), `${v}/${stamped}.pom`)).toBe(201);
    const meta1 = `<metadata><version>${v}</version><versioning><snapshot><timestamp>20260101.120000</timestamp><buildNumber>1</buildNumber></snapshot></versioning></metadata>`;
    expect(await curlPut(write('s1.xml', meta1), `${v}/maven-metadata.xml`)).toBe(201);
    expect(await curlPut(write('s1.sha1', sha('sha1', meta1)), `${v}/maven-metadata.xml.sha1`)).toBe(200);
    const meta2 = meta1.replaceAll('1</buildNumber>', '2</buildNumber>');
    expect(await curlPut(write('s2.xml', meta2), `${v}/maven-metadata.xml`)).toBe(201);
    expect(await (await get(`${v}/maven-metadata.xml`)).text()).toBe(meta2);
    expect(await (await get(`${v}/${stamped}.jar`)).text()).toBe('snap');
    const top = await (await get('maven-metadata.xml')).text();
    expect(top).toContain(`<release>1.0.0</release><latest>${v}</latest><versions><version>1.0.0</version><version>${v}</version></versions>`);
  });

  it('refuses a private owner\'s packages to anonymous callers with 401 and the realm', async () => {
    const hidden = await createUser(s, 'mvn-hidden', { visibility: 'private' });
    expect((await s.request(`api/packages/${hidden.username}/maven/${GROUP}/widget/1/widget-1.jar`, { method: 'PUT', body: 'x', auth: as(hidden) })).status).toBe(201);
    const anon = await s.request(`api/packages/${hidden.username}/maven/${GROUP}/widget/1/widget-1.jar`);
    expect(anon.status).toBe(401);
    expect(anon.headers.get('www-authenticate')).toBe('Basic realm="Gitea Package API"');
    expect((await s.request(`api/packages/${hidden.username}/maven/${GROUP}/widget/maven-metadata.xml`)).status).toBe(401);
    expect((await s.request(`api/packages/${hidden.username}/maven/${GROUP}/widget/1/widget-1.jar`, { auth: as(hidden) })).status).toBe(200);
    expect((await s.request(`${root(alice.username)}/3.0.0/widget-3.0.0.jar`, { method: 'PUT', body: 'x' })).status).toBe(401);
  });
});

describe('maven client', () => {
  // Maven Central is out of reach: the plugins must already be in the local repository (-llr
  // accepts them whatever repository they came from); everything else comes from hearth.
  /** Versions tried in turn (the first whose dependencies are all in ~/.m2 resolves the dependency). */
  const COMPILER_PLUGINS = ['3.13.0', '3.11.0', '3.14.0', '3.10.1'];
  const m2 = path.join(os.homedir(), '.m2', 'repository');
  const plugin = (name: string, version: string) => fs.existsSync(path.join(m2, 'org/apache/maven/plugins', name, version));
  const mvn = async (settings: string, args: string[]) => {
    try {
      return { ok: true, out: (await run('mvn', ['-B', '-llr', '-s', settings, ...args], { cwd: tmp, timeout: 120_000 })).stdout };
    } catch (err) {
      return { ok: false, out: String((err as { stdout?: string }).stdout ?? err) };
    }
  };
  const settingsFile = () => write('settings.xml', `<settings><servers><server><id>hearth</id><username>${alice.username}</username><password>${token}</password></server></servers>
<mirrors><mirror><id>hearth</id><mirrorOf>*</mirrorOf><url>${s.hearth.config.server.root_url}api/packages/${alice.username}/maven</url></mirror></mirrors></settings>`);

  afterAll(() => {
    fs.rmSync(path.join(m2, 'io/hearth/mvnclient'), { recursive: true, force: true });
    if (fs.existsSync(path.join(m2, 'io/hearth')) && !fs.readdirSync(path.join(m2, 'io/hearth')).length) fs.rmdirSync(path.join(m2, 'io/hearth'));
  });

  it('mvn deploy:deploy-file deploys to hearth and a project depending on it resolves the jar from hearth', async (ctx) => {
    if (!plugin('maven-deploy-plugin', '3.1.1')) {
      ctx.skip('maven-deploy-plugin 3.1.1 is not in ~/.m2 and Maven Central is not reachable');
    }
    const settings = settingsFile();
    const jarFile = write('client-1.0.jar', crypto.randomBytes(4096));
    const deploy = await mvn(settings, ['org.apache.maven.plugins:maven-deploy-plugin:3.1.1:deploy-file', `-Dfile=${jarFile}`,
      '-DgroupId=io.hearth.mvnclient', '-DartifactId=client', '-Dversion=1.0', '-Dpackaging=jar', '-DrepositoryId=hearth',
      `-Durl=${s.hearth.config.server.root_url}api/packages/${alice.username}/maven`]);
    if (!deploy.ok && /Plugin .* could not be resolved|Cannot access .* in offline mode|Failed to read artifact descriptor for org\.apache/.test(deploy.out)) {
      ctx.skip(`the deploy plugin's dependencies are not all in ~/.m2:\n${deploy.out.slice(-800)}`);
    }
    expect(deploy.ok, deploy.out.slice(-3000)).toBe(true);
    const meta = await (await s.request(`api/packages/${alice.username}/maven/io/hearth/mvnclient/client/maven-metadata.xml`, { auth: as(alice) })).text();
    expect(meta).toContain('<latest>1.0</latest>');
    // A project depending on the deployed jar: the compiler plugin resolves its dependencies first.
    fs.mkdirSync(path.join(tmp, 'consumer'), { recursive: true });
    write('consumer/pom.xml', `<project><modelVersion>4.0.0</modelVersion><groupId>io.hearth.consumer</groupId><artifactId>consumer</artifactId><version>1</version>
<dependencies><dependency><groupId>io.hearth.mvnclient</groupId><artifactId>client</artifactId><version>1.0</version></dependency></dependencies></project>`);
    let got = { ok: false, out: '' };
    for (const v of COMPILER_PLUGINS.filter((v) => plugin('maven-compiler-plugin', v))) {
      got = await mvn(settings, ['-f', path.join(tmp, 'consumer/pom.xml'), `org.apache.maven.plugins:maven-compiler-plugin:${v}:compile`]);
      if (got.ok || !/Plugin .* could not be resolved/.test(got.out)) break;
    }
    if (!got.ok && /Plugin .* could not be resolved/.test(got.out)) ctx.skip(`no maven-compiler-plugin in ~/.m2 has all its dependencies:\n${got.out.slice(-600)}`);
    expect(got.ok, got.out.slice(-3000)).toBe(true);
    expect(got.out).toContain('/maven/io/hearth/mvnclient/client/1.0/client-1.0.jar');
    expect(fs.readFileSync(path.join(m2, 'io/hearth/mvnclient/client/1.0/client-1.0.jar')).equals(fs.readFileSync(jarFile))).toBe(true);
  }, 300_000);
});
