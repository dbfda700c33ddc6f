import type { Readable, Writable } from 'node:stream';
import type { Hearth } from '../../hearth';
import { AppError, ForbiddenError, NotFoundError } from '../../lib/errors';
import { lfsSshAuthenticate } from '../lfs/ssh-token';
import { runGitService } from './run';
import { keyTarget, type GitService, type KeyIdentity } from './target';

// One command of a signed-in SSH key, for the built-in server and for `hearth serv` under the
// system sshd alike: the greeting, git-upload-pack / git-receive-pack / git-upload-archive on
// `owner/repo(.wiki)(.git)`, and git-lfs-authenticate. Refusals are one `hearth: ...` line on
// stderr and exit 1; a repository the key may not see reads exactly as a missing one.

export type CommandIo = {
  stdin: Readable; stdout: Writable; stderr: Writable;
  /** Fires when the client went away. */
  signal?: AbortSignal;
  onBytes?: (direction: 'in' | 'out', bytes: number) => void;
};

const SERVICES: Record<string, GitService> = {
  'git-upload-pack': 'upload-pack', 'git-receive-pack': 'receive-pack', 'git-upload-archive': 'upload-archive',
};
const LFS_AUTHENTICATE = 'git-lfs-authenticate';

/** Splits a command line as a POSIX shell would quote it (no expansion); null when unbalanced. */
export function splitCommand(line: string): string[] | null {
  const words: string[] = [];
  let word: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === '\'') {
      const end = line.indexOf('\'', i + 1);
      if (end < 0) return null;
      word = (word ?? '') + line.slice(i + 1, end);
      i = end;
    } else if (c === '"') {
      let j = i + 1;
      let text = '';
      for (; j < line.length && line[j] !== '"'; j++) text += line[j] === '\\' && /["\\$`]/.test(line[j + 1] ?? '') ? line[++j] : line[j];
      if (j >= line.length) return null;
      word = (word ?? '') + text;
      i = j;
    } else if (c === '\\' && i + 1 < line.length) {
      word = (word ?? '') + line[++i];
    } else if (/\s/.test(c)) {
      if (word !== null) words.push(word);
      word = null;
    } else {
      word = (word ?? '') + c;
    }
  }
  if (word !== null) words.push(word);
  return words;
}

/** `owner/repo`, `/owner/repo.git`, `owner/repo.wiki.git` → owner and repository name (wiki kept). */
export function parseRepoPath(raw: string): { owner: string; name: string } | null {
  const p = raw.trim().replace(/^\/+/, '');
  const m = /^([\w.-]+)\/([\w.-]+?)(?:\.git)?\/?$/.exec(p);
  return m ? { owner: m[1]!, name: m[2]! } : null;
}

export function greeting(h: Hearth, who: KeyIdentity): string {
  const app = h.config.server.app_name;
  const first = who.kind === 'deploy'
    ? `Hi there! You've successfully authenticated with the deploy key named ${who.key.name}, but ${app} does not provide shell access.`
    : `Hi there, ${who.user.name}! You've successfully authenticated with the key named ${who.key.name}, but ${app} does not provide shell access.`;
  return `${first}\nIf this is unexpected, please log in with password and setup ${app} under another user.\n`;
}

class Refusal extends Error {}

/** Runs the command; answers the exit code for the client. */
export async function runKeyCommand(
  h: Hearth, who: KeyIdentity, line: string | undefined, env: { gitProtocol?: string }, io: CommandIo,
): Promise<number> {
  if (!line?.trim()) {
    io.stderr.write(greeting(h, who));
    return 0;
  }
  try {
    return await dispatch(h, who, line, env, io);
  } catch (err) {
    const message = refusalOf(err, line);
    if (message === null) {
      h.log.error({ err, command: line }, 'ssh command failed');
    }
    // As Gitea: an empty line on stdout, the reason on stderr (git shows it as the error).
    io.stdout.write('\n');
    io.stderr.write(`${h.config.server.app_name}: ${message ?? 'internal error'}\n`);
    return 1;
  }
}

function refusalOf(err: unknown, line: string): string | null {
  if (err instanceof Refusal) return err.message;
  if (err instanceof NotFoundError) {
    const path = parseRepoPath(splitCommand(line)?.[1] ?? '');
    return `Cannot find repository: ${path ? `${path.owner}/${path.name}` : ''}`;
  }
  if (err instanceof ForbiddenError || err instanceof AppError) return err.message;
  return null;
}

async function dispatch(h: Hearth, who: KeyIdentity, line: string, env: { gitProtocol?: string }, io: CommandIo): Promise<number> {
  const words = splitCommand(line);
  if (!words) throw new Refusal('Error parsing arguments');
  if (words[0] === 'git' && words.length > 1) words.splice(0, 2, `git-${words[1]}`);
  if (words.length < 2) throw new Refusal('Too few arguments');
  const [verb, rawPath] = words as [string, string];
  const service = SERVICES[verb];
  if (!service && verb !== LFS_AUTHENTICATE) throw new Refusal('Unknown git command');
  const path = parseRepoPath(rawPath);
  if (!path) throw new Refusal('Invalid repository path');
  if (verb === LFS_AUTHENTICATE) {
    const op = words[2];
    if (op !== 'upload' && op !== 'download') throw new Refusal('Unknown LFS verb');
    const target = await keyTarget(h, who, path.owner, path.name, op === 'upload' ? 'receive-pack' : 'upload-pack');
    io.stdout.write(`${JSON.stringify(lfsSshAuthenticate(h, target, op))}\n`);
    return 0;
  }
  const target = await keyTarget(h, who, path.owner, path.name, service!);
  return runGitService(h, {
    service: service!, target, stateless: false, protocol: env.gitProtocol,
    input: io.stdin, output: io.stdout, errors: io.stderr, signal: io.signal, onBytes: io.onBytes,
  });
}
