import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestServer } from './server';
import { tempDir } from './git';

// The real OpenSSH client against hearth's SSH server (or a test sshd): keys made by ssh-keygen,
// git through GIT_SSH_COMMAND with only the given identity.

export type SshKey = { file: string; pub: string; fingerprint: string };

/** A new key pair (no passphrase) from ssh-keygen. */
export function makeKey(type: 'ed25519' | 'rsa' | 'ecdsa' = 'ed25519', comment = 'test'): SshKey {
  const file = path.join(tempDir('hearth-key-'), `id_${type}`);
  execFileSync('ssh-keygen', ['-q', '-t', type, ...(type === 'rsa' ? ['-b', '3072'] : []), '-N', '', '-C', comment, '-f', file]);
  const pub = fs.readFileSync(`${file}.pub`, 'utf8').trim();
  const fingerprint = execFileSync('ssh-keygen', ['-l', '-E', 'sha256', '-f', `${file}.pub`], { encoding: 'utf8' }).split(' ')[1]!;
  return { file, pub, fingerprint };
}

/** ssh options that use one identity and trust the test host key. */
export function sshArgs(port: number, key: SshKey | null, extra: string[] = []): string[] {
  return [
    '-p', String(port), '-o', 'StrictHostKeyChecking=no', '-o', 'UserKnownHostsFile=/dev/null', '-o', 'LogLevel=ERROR',
    '-o', 'BatchMode=yes', '-o', 'IdentitiesOnly=yes', '-F', '/dev/null',
    ...(key ? ['-i', key.file] : ['-o', 'PubkeyAuthentication=no']), ...extra,
  ];
}

export const gitSshCommand = (port: number, key: SshKey | null, extra: string[] = []) =>
  ['ssh', ...sshArgs(port, key, extra)].map((a) => (/[\s=]/.test(a) ? `'${a}'` : a)).join(' ');

export type Run = { code: number; stdout: string; stderr: string };

export function runCmd(cmd: string, args: string[], opts: { cwd?: string; env?: Record<string, string>; input?: string } = {}): Promise<Run> {
  return new Promise((resolve) => {
    const child = execFile(cmd, args, {
      cwd: opts.cwd, maxBuffer: 256 * 1024 * 1024,
      env: {
        ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1', HOME: os.tmpdir(),
        GIT_AUTHOR_NAME: 'Tester', GIT_AUTHOR_EMAIL: 'tester@example.com', GIT_COMMITTER_NAME: 'Tester', GIT_COMMITTER_EMAIL: 'tester@example.com',
        ...opts.env,
      },
    }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : 1) : 0;
      resolve({ code, stdout: String(stdout), stderr: String(stderr) });
    });
    // stdin closed (or given): ssh and git read to its end.
    child.stdin!.on('error', () => { /* it exited without reading */ });
    child.stdin!.end(opts.input ?? '');
  });
}

/** git with GIT_SSH_COMMAND using `key` on `port` (protocol version 2 unless told). */
export function sshGit(port: number, key: SshKey | null, cwd: string, args: string[], opts: { protocol?: 0 | 2; env?: Record<string, string> } = {}): Promise<Run> {
  return runCmd('git', ['-c', `protocol.version=${opts.protocol ?? 2}`, ...args], {
    cwd, env: { GIT_SSH_COMMAND: gitSshCommand(port, key), GIT_SSH_VARIANT: 'ssh', ...opts.env },
  });
}

/** `ssh git@127.0.0.1 COMMAND` with `key`. */
export const ssh = (port: number, key: SshKey | null, command: string[] = [], extra: string[] = [], user = 'git') =>
  runCmd('ssh', [...sshArgs(port, key, extra), `${user}@127.0.0.1`, ...command]);

export const sshUrl = (port: number, owner: string, repo: string) => `ssh://git@127.0.0.1:${port}/${owner}/${repo}.git`;

/** Adds a public key to the user's account through the API. */
export async function addUserKey(s: TestServer, user: { username: string; password: string }, key: SshKey, title = 'laptop'): Promise<number> {
  const res = await s.request('api/v1/user/keys', { method: 'POST', auth: { basic: [user.username, user.password] }, json: { title, key: key.pub } });
  if (res.status !== 201) throw new Error(`adding key: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { id: number }).id;
}

/** Adds a deploy key to owner/repo through the API. */
export async function addDeployKey(
  s: TestServer, user: { username: string; password: string }, owner: string, repo: string, key: SshKey, readOnly: boolean, title = 'deploy',
): Promise<number> {
  const res = await s.request(`api/v1/repos/${owner}/${repo}/keys`, {
    method: 'POST', auth: { basic: [user.username, user.password] }, json: { title, key: key.pub, read_only: readOnly },
  });
  if (res.status !== 201) throw new Error(`adding deploy key: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { id: number }).id;
}
