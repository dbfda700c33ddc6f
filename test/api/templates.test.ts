import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillLicense } from '../../src/lib/license-fill';
import { parseLegacyLabels, parseYamlLabels } from '../../src/lib/label-templates';
import { createRepo, git, remoteUrl, tempDir } from '../helpers/git';
import { createToken, createUser, json, startTestServer, type TestServer } from '../helpers/server';
import { expectShape } from '../helpers/swagger';

let s: TestServer;
let alice: { username: string; password: string; id: number };

beforeAll(async () => {
  s = await startTestServer();
  alice = await createUser(s, 'alice');
});
afterAll(async () => { await s.stop(); });

const REQUIRED_LICENSES = [
  'MIT', 'Apache-2.0', 'GPL-3.0', 'GPL-3.0-only', 'GPL-3.0-or-later', 'BSD-3-Clause', 'BSD-2-Clause', 'MPL-2.0',
  'LGPL-3.0', 'AGPL-3.0', 'ISC', 'Unlicense',
];
const REQUIRED_GITIGNORES = ['Node', 'Python', 'Go', 'Rust', 'Java', 'C', 'C++', 'VisualStudioCode', 'macOS', 'Windows', 'Linux'];

describe('gitignore templates', () => {
  it('GET /gitignore/templates lists names as Gitea spells them, sorted', async () => {
    const res = await s.request('api/v1/gitignore/templates');
    expect(res.status).toBe(200);
    const names = (await json(res)) as string[];
    expect(names.every((n) => typeof n === 'string')).toBe(true);
    expect(names).toEqual(expect.arrayContaining(REQUIRED_GITIGNORES));
    expect(names).toEqual([...names].sort());
  });

  it.each(REQUIRED_GITIGNORES)('GET /gitignore/templates/%s answers GitignoreTemplateInfo', async (name) => {
    const res = await s.request(`api/v1/gitignore/templates/${encodeURIComponent(name)}`);
    expect(res.status).toBe(200);
    const body = await json(res);
    expectShape(body, 'GitignoreTemplateInfo');
    expect(Object.keys(body).sort()).toEqual(['name', 'source']);
    expect(body.name).toBe(name);
    expect(body.source.length).toBeGreaterThan(20);
  });

  it('has realistic content', async () => {
    const node = await json(await s.request('api/v1/gitignore/templates/Node'));
    expect(node.source).toMatch(/^node_modules\/$/m);
    const py = await json(await s.request('api/v1/gitignore/templates/Python'));
    expect(py.source).toMatch(/^__pycache__\/$/m);
    const rust = await json(await s.request('api/v1/gitignore/templates/Rust'));
    expect(rust.source).toMatch(/^target\/$/m);
  });

  it.each(['Nope', 'node', '..%2Flicense%2FMIT', '%2E%2E'])('answers 404 for an unknown name (%s)', async (name) => {
    const res = await s.request(`api/v1/gitignore/templates/${name}`);
    expect(res.status).toBe(404);
    expect(Object.keys(await json(res)).sort()).toEqual(['message', 'url']);
  });
});

describe('license templates', () => {
  it('GET /licenses lists LicensesTemplateListEntry, preferred licences first', async () => {
    const res = await s.request('api/v1/licenses');
    expect(res.status).toBe(200);
    const list = await json(res);
    expectShape(list, '[LicensesTemplateListEntry]');
    const keys = list.map((l: { key: string }) => l.key);
    expect(keys).toEqual(expect.arrayContaining(REQUIRED_LICENSES));
    // Gitea's default PREFERRED_LICENSES = Apache-2.0,MIT; the rest sorted by name.
    expect(keys.slice(0, 2)).toEqual(['Apache-2.0', 'MIT']);
    expect(keys.slice(2)).toEqual([...keys.slice(2)].sort());
    const mit = list.find((l: { key: string }) => l.key === 'MIT');
    expect(mit).toEqual({ key: 'MIT', name: 'MIT', url: `${s.hearth.config.server.root_url}api/v1/licenses/MIT` });
  });

  it.each(REQUIRED_LICENSES)('GET /licenses/%s answers LicenseTemplateInfo', async (name) => {
    const res = await s.request(`api/v1/licenses/${name}`);
    expect(res.status).toBe(200);
    const body = await json(res);
    expectShape(body, 'LicenseTemplateInfo');
    expect(Object.keys(body).sort()).toEqual(['body', 'implementation', 'key', 'name', 'url']);
    expect(body).toMatchObject({ key: name, name, url: `${s.hearth.config.server.root_url}api/v1/licenses/${name}` });
    expect(body.implementation).toMatch(/^Create a text file \(typically named LICENSE or LICENSE\.txt\)/);
    expect(body.body.length).toBeGreaterThan(400);
  });

  it('keeps the SPDX placeholders in the texts', async () => {
    const body = async (name: string) => (await json(await s.request(`api/v1/licenses/${name}`))).body as string;
    expect(await body('MIT')).toContain('Copyright (c) <year> <copyright holders>');
    expect(await body('Apache-2.0')).toContain('Copyright [yyyy] [name of copyright owner]');
    expect(await body('BSD-3-Clause')).toContain('Copyright (c) <year> <owner>');
    expect(await body('GPL-3.0')).toContain('Copyright (C) <year> <name of author>');
  });

  it('serves full texts (GPL-3.0 and AGPL-3.0 end to end)', async () => {
    const gpl = (await json(await s.request('api/v1/licenses/GPL-3.0'))).body as string;
    expect(gpl).toMatch(/^GNU GENERAL PUBLIC LICENSE/);
    expect(gpl).toContain('17. Interpretation of Sections 15 and 16.');
    expect(gpl).toContain('END OF TERMS AND CONDITIONS');
    expect(gpl.length).toBeGreaterThan(30_000);
    const agpl = (await json(await s.request('api/v1/licenses/AGPL-3.0'))).body as string;
    expect(agpl).toMatch(/^GNU AFFERO GENERAL PUBLIC LICENSE/);
    expect(agpl).toContain('13. Remote Network Interaction; Use with the GNU General Public License.');
    expect(agpl.length).toBeGreaterThan(30_000);
  });

  it.each(['mit', 'GPL-4.0', '..%2Fgitignore%2FNode'])('answers 404 for an unknown licence (%s)', async (name) => {
    expect((await s.request(`api/v1/licenses/${name}`)).status).toBe(404);
  });
});

describe('label templates', () => {
  it('GET /label/templates lists display names without file extensions', async () => {
    const res = await s.request('api/v1/label/templates');
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual(['Advanced', 'Default']);
  });

  it('GET /label/templates/Default answers LabelTemplate[]', async () => {
    const res = await s.request('api/v1/label/templates/Default');
    expect(res.status).toBe(200);
    const labels = await json(res);
    expectShape(labels, '[LabelTemplate]');
    expect(labels).toHaveLength(7);
    expect(labels[0]).toEqual({ name: 'bug', color: 'ee0701', description: 'Something is not working', exclusive: false });
    expect(labels.map((l: { name: string }) => l.name)).toContain('help wanted');
  });

  it('GET /label/templates/Advanced carries scoped, exclusive labels', async () => {
    const labels = await json(await s.request('api/v1/label/templates/Advanced'));
    expectShape(labels, '[LabelTemplate]');
    expect(labels.find((l: { name: string }) => l.name === 'Kind/Bug')).toEqual({
      name: 'Kind/Bug', color: 'ee0701', description: 'Something is not working', exclusive: false,
    });
    expect(labels.find((l: { name: string }) => l.name === 'Reviewed/Won\'t Fix')).toMatchObject({ exclusive: true, color: 'eeeeee' });
    // A quoted colour that YAML would otherwise read as a number.
    expect(labels.find((l: { name: string }) => l.name === 'Status/Abandoned').color).toBe('222222');
    expect(labels.every((l: { color: string }) => /^[0-9a-f]{6}$/.test(l.color))).toBe(true);
  });

  it.each(['Nope', 'Default.yaml', 'default'])('answers 404 for an unknown template (%s)', async (name) => {
    expect((await s.request(`api/v1/label/templates/${name}`)).status).toBe(404);
  });

  it('parses both of Gitea\'s label file formats', () => {
    expect(parseLegacyLabels('#ee0701 bug ; Something is not working\n\n#ccc dup\n')).toEqual([
      { name: 'bug', color: '#ee0701', description: 'Something is not working', exclusive: false, priority: '' },
      { name: 'dup', color: '#ccc', description: '', exclusive: false, priority: '' },
    ]);
    const yaml = 'labels:\n  # a comment\n  - name: "a: b" # trailing\n    color: \'00AABB\'\n    exclusive: true\n    description: it\'s fine\n    priority: high\n';
    expect(parseYamlLabels(yaml)).toEqual([
      { name: 'a: b', color: '#00aabb', description: 'it\'s fine', exclusive: true, priority: 'high' },
    ]);
  });
});

describe('templates are public misc endpoints', () => {
  it('need no credentials and accept a token of any scope', async () => {
    const token = await createToken(s, alice, ['read:user']);
    for (const p of ['gitignore/templates', 'licenses', 'label/templates', 'licenses/MIT']) {
      expect((await s.request(`api/v1/${p}`)).status).toBe(200);
      expect((await s.request(`api/v1/${p}`, { auth: { token } })).status).toBe(200);
    }
  });

  it('are described in the server\'s swagger document', async () => {
    const spec = await json(await s.request('swagger.v1.json'));
    expect(spec.paths['/licenses/{name}'].get.operationId).toBe('getLicenseTemplateInfo');
    expect(spec.paths['/label/templates/{name}'].get.operationId).toBe('getLabelTemplateInfo');
    expect(spec.paths['/gitignore/templates'].get.operationId).toBe('listGitignoresTemplates');
  });
});

describe('repositories created from templates', () => {
  const year = String(new Date().getFullYear());

  async function cloneFiles(repo: string): Promise<string> {
    const dir = tempDir();
    await git(dir, 'clone', '-q', remoteUrl(s, 'alice', repo, alice.username, alice.password), 'c');
    return path.join(dir, 'c');
  }

  it('auto_init with license MIT and gitignores Node,Python writes LICENSE and .gitignore', async () => {
    await createRepo(s, alice, 'with-templates', { auto_init: true, license: 'MIT', gitignores: 'Node,Python', description: 'tpl' });
    const work = await cloneFiles('with-templates');
    expect(fs.readdirSync(work).sort()).toEqual(['.git', '.gitignore', 'LICENSE', 'README.md']);
    const ignore = fs.readFileSync(path.join(work, '.gitignore'), 'utf8');
    expect(ignore.startsWith('# ---> Node\n')).toBe(true);
    expect(ignore).toContain('\n# ---> Python\n');
    expect(ignore).toMatch(/^node_modules\/$/m);
    expect(ignore).toMatch(/^__pycache__\/$/m);
    expect(fs.readFileSync(path.join(work, 'README.md'), 'utf8')).toBe('# with-templates\n\ntpl\n');
  });

  it('fills the MIT licence\'s <copyright holders> with the owner name (was left unfilled)', async () => {
    const work = await cloneFiles('with-templates');
    const license = fs.readFileSync(path.join(work, 'LICENSE'), 'utf8');
    expect(license).toContain(`Copyright (c) ${year} alice\n`);
    expect(license).not.toMatch(/<year>|<copyright holders>/);
  });

  it('fills GPL-3.0 and Apache-2.0 placeholders as Gitea does', async () => {
    await createRepo(s, alice, 'gpl-repo', { auto_init: true, license: 'GPL-3.0' });
    const gpl = fs.readFileSync(path.join(await cloneFiles('gpl-repo'), 'LICENSE'), 'utf8');
    expect(gpl).toContain(`Copyright (C) ${year} alice`);
    expect(gpl).toContain(`gpl-repo Copyright (C) ${year} alice`);
    expect(gpl).not.toMatch(/<name of author>|<year>|<program>/);
    await createRepo(s, alice, 'apache-repo', { auto_init: true, license: 'Apache-2.0' });
    const apache = fs.readFileSync(path.join(await cloneFiles('apache-repo'), 'LICENSE'), 'utf8');
    expect(apache).toContain(`Copyright ${year} alice`);
  });

  it('fills only 0BSD\'s copyright line (its other AUTHOR is not a placeholder)', () => {
    const text = 'Copyright (C) YEAR by AUTHOR EMAIL\n\nTHE AUTHOR DISCLAIMS\n';
    expect(fillLicense('0BSD', text, { owner: 'o', email: 'o@x', repo: 'r', year: '2024' }))
      .toBe('Copyright (C) 2024 by o o@x\n\nTHE AUTHOR DISCLAIMS\n');
  });

  it.each([
    [{ license: 'NoSuchLicense' }, /license/i],
    [{ gitignores: 'Node,NoSuchIgnore' }, /gitignore/i],
  ])('refuses unknown templates with 422 (%o) and leaves nothing behind', async (extra, message) => {
    const res = await s.request('api/v1/user/repos', {
      method: 'POST', auth: { basic: [alice.username, alice.password] }, json: { name: 'bad-template', auto_init: true, ...extra },
    });
    expect(res.status).toBe(422);
    expect((await json(res)).message).toMatch(message);
    expect((await s.request('api/v1/repos/alice/bad-template', { auth: { basic: [alice.username, alice.password] } })).status).toBe(404);
    expect(fs.existsSync(path.join(s.hearth.config.repository.root, 'alice', 'bad-template.git'))).toBe(false);
  });
});
