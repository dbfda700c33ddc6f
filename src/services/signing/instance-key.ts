import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Config } from '../../config/schema';
import { hostOf } from '../../lib/url-host';
import { placeOnce, privateTmpName } from '../../lib/place-once';

// The instance's signing key, Gitea's [repository.signing] SIGNING_KEY: "none", "default" (a key
// hearth generates on first use under <data_dir>/home, which `hearth dump` carries), or a GPG key
// id in that home's keyring (ssh format: the path of a private key).

const run = promisify(execFile);

export type SigningIdentity = { name: string; email: string };
/** What git needs to sign one commit: `-c` options before the command, the -S flag, the environment. */
export type CommitSigner = SigningIdentity & {
  format: 'openpgp' | 'ssh';
  keyId: string;
  config: string[];
  flag: string;
  env: Record<string, string>;
};

export const signingHome = (config: Config) => path.join(config.server.data_dir, 'home');
export const gnupgHome = (config: Config) => path.join(signingHome(config), '.gnupg');
const sshKeyPath = (config: Config) => path.join(signingHome(config), '.ssh', 'signing_ed25519');

export function signingIdentity(config: Config): SigningIdentity {
  const s = config.repository.signing;
  return {
    name: s.signing_name || config.server.app_name,
    email: s.signing_email || `noreply@${hostOf(config.server.root_url)}`,
  };
}

const gpg = (config: Config, args: string[]) => {
  const home = gnupgHome(config);
  fs.mkdirSync(home, { recursive: true, mode: 0o700 });
  // A restored dump recreates the directory with the umask's mode; gpg wants it private.
  fs.chmodSync(home, 0o700);
  return run('gpg', ['--homedir', home, '--batch', '--no-tty', ...args], { env: { ...process.env, GNUPGHOME: home }, maxBuffer: 16 << 20 });
};

/** Fingerprint of the first usable secret key, or null. */
async function firstSecretKey(config: Config): Promise<string | null> {
  const { stdout } = await gpg(config, ['--with-colons', '--list-secret-keys']).catch(() => ({ stdout: '' }));
  const fpr = stdout.split('\n').find((l) => l.startsWith('fpr:'));
  return fpr ? fpr.split(':')[9] ?? null : null;
}

async function defaultGpgKey(config: Config): Promise<string> {
  const existing = await firstSecretKey(config);
  if (existing) return existing;
  const id = signingIdentity(config);
  await gpg(config, ['--passphrase', '', '--pinentry-mode', 'loopback', '--quick-gen-key', `${id.name} <${id.email}>`, 'ed25519', 'sign', 'never']);
  const made = await firstSecretKey(config);
  if (!made) throw new Error('gpg did not create the instance signing key');
  return made;
}

async function defaultSshKey(config: Config): Promise<string> {
  const file = sshKeyPath(config);
  await makeSshKeyOnce(file, signingIdentity(config).email);
  return file;
}

/**
 * An ed25519 key at `file` unless one is there. Generated under a name of this call's own and
 * hard-linked into place: nodes sharing the data directory may sign their first commit at the
 * same moment (ssh-keygen on one path would ask whether to overwrite and fail), and the first
 * link wins, so every node signs with that one key. The public half is read from the private key.
 */
export async function makeSshKeyOnce(file: string, comment: string): Promise<void> {
  if (fs.existsSync(file)) return;
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const tmp = privateTmpName(file);
  try {
    await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', comment, '-f', tmp]);
    if (placeOnce(tmp, file)) fs.renameSync(`${tmp}.pub`, `${file}.pub`);
  } finally {
    fs.rmSync(tmp, { force: true });
    fs.rmSync(`${tmp}.pub`, { force: true });
  }
}

const resolved = new Map<string, Promise<string | null>>();

/** The key id (ssh: private key path) in use, generating the default key once; null when off. */
export function signingKeyId(config: Config): Promise<string | null> {
  const s = config.repository.signing;
  if (s.signing_key === 'none') return Promise.resolve(null);
  const cacheKey = `${config.server.data_dir}\0${s.signing_format}\0${s.signing_key}`;
  let p = resolved.get(cacheKey);
  if (!p) {
    p = s.signing_key !== 'default' ? Promise.resolve(s.signing_key)
      : s.signing_format === 'ssh' ? defaultSshKey(config) : defaultGpgKey(config);
    p.catch(() => resolved.delete(cacheKey));
    resolved.set(cacheKey, p);
  }
  return p;
}

/** The signer for git, or null when the instance does not sign. */
export async function commitSigner(config: Config): Promise<CommitSigner | null> {
  const keyId = await signingKeyId(config);
  if (!keyId) return null;
  const id = signingIdentity(config);
  if (config.repository.signing.signing_format === 'ssh') {
    return { ...id, format: 'ssh', keyId, config: ['-c', 'gpg.format=ssh', '-c', `user.signingkey=${keyId}`], flag: '-S', env: {} };
  }
  return { ...id, format: 'openpgp', keyId, config: ['-c', 'gpg.format=openpgp'], flag: `-S${keyId}`, env: { GNUPGHOME: gnupgHome(config) } };
}

const publicKeys = new Map<string, Promise<string>>();

/** The public half ('' when signing is off) and its format, as Gitea's PublicSigningKey. */
export async function publicSigningKey(config: Config): Promise<{ content: string; format: 'openpgp' | 'ssh' | '' }> {
  const keyId = await signingKeyId(config);
  if (!keyId) return { content: '', format: '' };
  const format = config.repository.signing.signing_format;
  const cacheKey = `${config.server.data_dir}\0${format}\0${keyId}`;
  let p = publicKeys.get(cacheKey);
  if (!p) {
    p = format === 'ssh'
      ? run('ssh-keygen', ['-y', '-f', keyId]).then((r) => r.stdout)
      : gpg(config, ['--export', '--armor', keyId]).then((r) => r.stdout);
    p.catch(() => publicKeys.delete(cacheKey));
    publicKeys.set(cacheKey, p);
  }
  return { content: await p, format };
}
