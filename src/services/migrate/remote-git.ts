import { spawnGitGroup } from '../../git/spawn-group';
import { git, gitEnv } from '../../git/exec';
import { gitCredentials, type CheckedRemote } from './remote-address';

// git commands that reach a remote (fetch, ls-remote) for migrations and mirrors: the address
// checked by checkRemote pinned through its `-c` options, credentials only through the
// environment, no credential helper of the host's, and a time limit through an AbortSignal.

// The refs a migration and a mirror take: branches, tags and notes. Other namespaces (a
// source's refs/pull/*) are the importer's to write, with the pull requests they belong to.
export const MIRROR_REFSPECS = ['+refs/heads/*:refs/heads/*', '+refs/tags/*:refs/tags/*', '+refs/notes/*:refs/notes/*'];

export type RemoteAuth = { username: string; password: string };

/** Thrown when a remote command fails; its message holds no credentials. */
export class RemoteGitError extends Error {
  constructor(message: string, readonly stderr: string, readonly aborted = false) {
    super(message);
  }
}

/** `text` with every credential replaced, so it may be logged, stored or answered. */
export function redact(text: string, auth: RemoteAuth): string {
  let out = text.replace(/(\w+:\/\/)[^/@\s]*@/g, '$1');
  // Only the password: a user name is often also the owner in the repository's own path.
  if (auth.password) out = out.split(auth.password).join('***');
  return out;
}

function runRemote(args: string[], gitDir: string | undefined, env: Record<string, string>, signal: AbortSignal): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    // A fetch's git-remote-https, blocked on a stalled remote, is stopped with it (its group).
    const child = spawnGitGroup(args, { env: gitEnv({ gitDir, env }), stdio: ['ignore', 'pipe', 'pipe'] }, signal);
    let out = '';
    let err = '';
    child.stdout!.on('data', (b: Buffer) => { if (out.length < 16 * 1024 * 1024) out += b.toString(); });
    child.stderr!.on('data', (b: Buffer) => { if (err.length < 64 * 1024) err += b.toString(); });
    child.on('error', reject);
    child.on('close', (code) => (signal.aborted ? reject(signal.reason) : resolve({ code: code ?? -1, stdout: out, stderr: err })));
  });
}

/** Runs `git <subcommand...>` against `remote`; the address is the argument after `before`. */
export async function remoteGit(
  remote: CheckedRemote, auth: RemoteAuth, before: string[], after: string[],
  opts: { gitDir?: string; signal: AbortSignal },
): Promise<string> {
  const creds = gitCredentials(auth.username, auth.password);
  // Without credentials of our own, a helper configured on the host must not answer either.
  const helper = creds.config.length ? creds.config : ['-c', 'credential.helper='];
  const args = [...remote.gitConfig, ...helper, ...before, remote.address, ...after];
  let r: { code: number; stdout: string; stderr: string };
  try {
    r = await runRemote(args, opts.gitDir, creds.env, opts.signal);
  } catch (err) {
    if (opts.signal.aborted) throw new RemoteGitError(`git ${before[0]} timed out`, '', true);
    throw err;
  }
  if (r.code !== 0) {
    const stderr = redact(r.stderr.trim(), auth);
    const last = stderr.split('\n').filter(Boolean).slice(-2).join(' ');
    throw new RemoteGitError(last || `git ${before[0]} failed (${r.code})`, stderr);
  }
  return r.stdout;
}

/** The remote's default branch (what its HEAD points at), or null when it has none. */
export async function remoteHead(remote: CheckedRemote, auth: RemoteAuth, signal: AbortSignal): Promise<string | null> {
  const out = await remoteGit(remote, auth, ['ls-remote', '--symref'], ['HEAD'], { signal });
  const m = /^ref: refs\/heads\/(\S+)\tHEAD$/m.exec(out);
  return m ? m[1]! : null;
}

/** Every ref of a local repository under `prefixes` with the object it points at. */
export async function localRefs(dir: string, prefixes: string[]): Promise<Map<string, string>> {
  const out = await git(['for-each-ref', '--format=%(objectname) %(refname)', ...prefixes], { gitDir: dir });
  const refs = new Map<string, string>();
  for (const line of out.split('\n')) {
    const at = line.indexOf(' ');
    if (at > 0) refs.set(line.slice(at + 1), line.slice(0, at));
  }
  return refs;
}

/** Drops refs/migrate/* (a source's pull heads fetched only to be kept under our numbers). */
export async function dropTemporaryRefs(gitDir: string): Promise<void> {
  const refs = await localRefs(gitDir, ['refs/migrate/']);
  if (!refs.size) return;
  const script = [...refs.keys()].map((r) => `delete ${r}\n`).join('');
  await git(['update-ref', '--stdin'], { gitDir, input: script });
}
