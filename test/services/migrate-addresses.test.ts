import { describe, expect, it } from 'vitest';
import { codebaseSource } from '../../src/services/migrate/downloaders/codebase';
import { codecommitEndpoint } from '../../src/services/migrate/downloaders/codecommit';
import { githubApiBase } from '../../src/services/migrate/downloaders/github';
import { ownerRepo, pathParts } from '../../src/services/migrate/downloaders';
import { onedevProject } from '../../src/services/migrate/downloaders/onedev';

// Where each service's API is, read from the clone address a user gives.

describe('clone addresses of migration sources', () => {
  it('GitHub: api.github.com for github.com, /api/v3 for Enterprise Server; GitBucket under its context path', () => {
    const gh = ownerRepo('https://github.com/go-gitea/gitea.git');
    expect(gh).toMatchObject({ owner: 'go-gitea', repo: 'gitea' });
    expect(githubApiBase('https://github.com/go-gitea/gitea.git', gh.root, 'github')).toBe('https://api.github.com/');
    expect(githubApiBase('https://ghe.example.com/org/proj', 'https://ghe.example.com/', 'github')).toBe('https://ghe.example.com/api/v3/');
    const gb = ownerRepo('https://gb.example.com/gitbucket/git/alice/proj.git');
    expect(gb).toEqual({ root: 'https://gb.example.com/gitbucket/git/', owner: 'alice', repo: 'proj' });
    expect(githubApiBase('https://gb.example.com/gitbucket/git/alice/proj.git', gb.root, 'gitbucket')).toBe('https://gb.example.com/gitbucket/api/v3/');
  });

  it('GitLab: the whole path is the project (groups and subgroups)', () => {
    expect(pathParts('https://gitlab.example.com/group/sub/proj.git').parts).toEqual(['group', 'sub', 'proj']);
  });

  it('OneDev: the project page or its git address', () => {
    expect(onedevProject('https://onedev.example.com/projects/server')).toEqual({ origin: 'https://onedev.example.com', project: 'server' });
    expect(onedevProject('https://onedev.example.com/server.git')).toEqual({ origin: 'https://onedev.example.com', project: 'server' });
    expect(() => onedevProject('https://onedev.example.com/a/b/c')).toThrow(/Invalid Url/);
  });

  it('Codebase: api3.codebasehq.com for accounts there, project and repository from the path', () => {
    expect(codebaseSource('https://acme.codebasehq.com/shop/web.git')).toEqual({ api: 'https://api3.codebasehq.com/', project: 'shop', repo: 'web' });
    expect(() => codebaseSource('https://acme.codebasehq.com/web.git')).toThrow(/Invalid Url/);
  });

  it('CodeCommit: the API endpoint and region of the git host', () => {
    expect(codecommitEndpoint('https://git-codecommit.eu-west-1.amazonaws.com/v1/repos/app')).toEqual({ endpoint: 'https://codecommit.eu-west-1.amazonaws.com/', region: 'eu-west-1' });
    expect(codecommitEndpoint('https://git-codecommit.cn-north-1.amazonaws.com.cn/v1/repos/app').endpoint).toBe('https://codecommit.cn-north-1.amazonaws.com.cn/');
  });
});
