import { InvalidError } from '../../../lib/errors';
import type { Downloader } from '../downloader';
import type { HttpOptions } from '../source-http';
import { CodebaseDownloader, codebaseSource } from './codebase';
import { CodecommitDownloader, codecommitEndpoint } from './codecommit';
import { GiteaDownloader } from './gitea';
import { githubApiBase, GithubDownloader } from './github';
import { GitlabDownloader } from './gitlab';
import { OnedevDownloader, onedevProject } from './onedev';

// One downloader per service, chosen by MigrateRepoOptions.service; each reads the clone
// address the way its service shapes it. `gitAddress` is where git fetches from when the
// service's web address is not its git address (OneDev's /projects/<name>).

export const FORGE_SERVICES = ['gitea', 'forgejo', 'gogs', 'github', 'gitlab', 'onedev', 'gitbucket', 'codebase', 'codecommit'] as const;
export type ForgeService = (typeof FORGE_SERVICES)[number];

export type SourceSpec = {
  service: ForgeService;
  /** The checked clone address, without credentials. */
  address: string;
  username: string; password: string; token: string;
  awsAccessKeyId: string; awsSecretAccessKey: string;
  /** A mirror: only the git address is wanted (no API credentials needed). */
  gitOnly: boolean;
  http: HttpOptions;
};

export type Source = { downloader: Downloader; gitAddress?: string };

/** The clone address's path segments, `.git` dropped from the last. */
export function pathParts(address: string): { url: URL; parts: string[] } {
  const url = new URL(address);
  if (url.protocol === 'git:') throw new InvalidError('Invalid Url: expected https://host/owner/repo', 'clone_addr');
  const parts = url.pathname.split('/').filter(Boolean).map((p) => decodeURIComponent(p));
  if (parts.length) parts[parts.length - 1] = parts[parts.length - 1]!.replace(/\.git$/, '');
  return { url, parts };
}

/** `https://host[/prefix]/owner/repo(.git)`: the root, owner and name. */
export function ownerRepo(address: string): { root: string; owner: string; repo: string } {
  const { url, parts } = pathParts(address);
  if (parts.length < 2) throw new InvalidError('Invalid Url: expected https://host/owner/repo', 'clone_addr');
  const repo = parts.pop()!;
  const owner = parts.pop()!;
  const prefix = parts.length ? `${parts.join('/')}/` : '';
  return { root: `${url.origin}/${prefix}`, owner, repo };
}

export function createSource(spec: SourceSpec): Source {
  switch (spec.service) {
    case 'gitea': case 'forgejo': case 'gogs': {
      const { root, owner, repo } = ownerRepo(spec.address);
      return { downloader: new GiteaDownloader({ baseUrl: root, owner, repo, token: spec.token || spec.password, service: spec.service }, spec.http) };
    }
    case 'github': case 'gitbucket': {
      const { root, owner, repo } = ownerRepo(spec.address);
      const apiBase = githubApiBase(spec.address, root, spec.service);
      return { downloader: new GithubDownloader({ apiBase, owner, repo, token: spec.token, username: spec.username, password: spec.password, service: spec.service }, spec.http) };
    }
    case 'gitlab': {
      const { url, parts } = pathParts(spec.address);
      if (parts.length < 2) throw new InvalidError('Invalid Url: expected https://host/group/project', 'clone_addr');
      // GitLab takes a personal access token as the password of any user name.
      return { downloader: new GitlabDownloader({ origin: url.origin, projectPath: parts.join('/'), token: spec.token || spec.password }, spec.http) };
    }
    case 'codecommit': {
      const { parts } = pathParts(spec.address);
      if (!spec.gitOnly && (!spec.awsAccessKeyId || !spec.awsSecretAccessKey)) throw new InvalidError('CodeCommit needs aws_access_key_id and aws_secret_access_key', 'aws_access_key_id');
      const repo = parts[parts.length - 1];
      if (!repo) throw new InvalidError('Invalid Url: expected https://git-codecommit.<region>.amazonaws.com/v1/repos/<name>', 'clone_addr');
      const credentials = { accessKeyId: spec.awsAccessKeyId, secretAccessKey: spec.awsSecretAccessKey };
      return { downloader: new CodecommitDownloader({ ...codecommitEndpoint(spec.address), repo, credentials }, spec.http) };
    }
    case 'onedev': {
      const { origin, project } = onedevProject(spec.address);
      const downloader = new OnedevDownloader({ origin, project, username: spec.username, password: spec.token || spec.password }, spec.http);
      // The web address names the project; git serves it at the root.
      return { downloader, gitAddress: `${origin}/${encodeURIComponent(project)}` };
    }
    case 'codebase':
      return { downloader: new CodebaseDownloader({ ...codebaseSource(spec.address), username: spec.username, password: spec.password || spec.token }, spec.http) };
    default:
      throw new InvalidError(`Migrating from ${spec.service} is not supported yet`, 'service');
  }
}
