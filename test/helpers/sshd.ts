import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { hearthCommand } from './process';

// Debian's OpenSSH sshd, started by a test on a free loopback port, with hearth as its
// AuthorizedKeysCommand (`hearth keys`) and forced command (`hearth serv`). It needs root (to
// run as a daemon that switches users); tests skip without it.

export const SSHD = '/usr/sbin/sshd';
export const canRunSshd = () => fs.existsSync(SSHD) && process.getuid?.() === 0;

export type Sshd = { port: number; user: string; dir: string; stop: () => void; log: () => string };

const freePort = () => new Promise<number>((resolve) => {
  const srv = net.createServer().listen(0, '127.0.0.1', () => {
    const { port } = srv.address() as net.AddressInfo;
    srv.close(() => resolve(port));
  });
});

/** Whether sshd takes a program under `dir`: every directory up to / owned by root or us, writable by no one else. */
function sshdTrusts(dir: string): boolean {
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    const st = fs.statSync(d);
    if ((st.uid !== 0 && st.uid !== process.getuid!()) || (st.mode & 0o022) !== 0) return false;
    if (d === path.dirname(d)) return true;
  }
}

/**
 * A private directory sshd accepts for its helper programs: sshd refuses an
 * AuthorizedKeysCommand under a world-writable directory (/tmp), so it lives in the checkout,
 * or under the home directory when the checkout itself sits in one (a clone in /tmp).
 */
function privateDir(): string {
  const checkout = path.resolve(__dirname, '../..');
  const base = sshdTrusts(checkout) ? path.join(checkout, 'node_modules/.cache') : path.join(os.homedir(), '.cache');
  fs.mkdirSync(base, { recursive: true, mode: 0o755 });
  const dir = fs.mkdtempSync(path.join(base, 'hearth-sshd-'));
  fs.chmodSync(dir, 0o755);
  return dir;
}

/** A shell script that runs hearth with `args` then the script's own arguments (sshd clears PATH). */
function hearthScript(dir: string, name: string, args: string[]): string {
  const [cmd, base] = hearthCommand(args);
  const file = path.join(dir, name);
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  fs.writeFileSync(file, `#!/bin/sh\nPATH=${quote(`${path.dirname(process.execPath)}:/usr/bin:/bin`)}; export PATH\nexec ${[cmd, ...base].map(quote).join(' ')} "$@"\n`, { mode: 0o755 });
  return file;
}

/**
 * sshd for hearth: `keys` answers for user `user` with hearth's configuration file `config`
 * (which names the template of the forced command).
 */
export async function startSshd(configFile: string): Promise<Sshd> {
  const dir = privateDir();
  const user = os.userInfo().username;
  const hostKey = path.join(dir, 'host_ed25519');
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', hostKey]);
  const keys = hearthScript(dir, 'hearth-keys', [`--config=${configFile}`, 'keys']);
  const port = await freePort();
  const conf = path.join(dir, 'sshd_config');
  fs.writeFileSync(conf, [
    `Port ${port}`, 'ListenAddress 127.0.0.1', `HostKey ${hostKey}`, 'PidFile none', 'UsePAM no', 'StrictModes no',
    'PermitRootLogin prohibit-password', 'PasswordAuthentication no', 'KbdInteractiveAuthentication no',
    'AuthorizedKeysFile none', `AuthorizedKeysCommand ${keys} -e ${user} -u %u -t %t -k %k`, `AuthorizedKeysCommandUser ${user}`,
    'AcceptEnv GIT_PROTOCOL', 'LogLevel VERBOSE', '',
  ].join('\n'));
  fs.mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
  let out = '';
  const child: ChildProcess = spawn(SSHD, ['-D', '-e', '-f', conf], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.on('data', (b) => { out += b; });
  child.stderr!.on('data', (b) => { out += b; });
  for (let i = 0; i < 100 && !/Server listening/.test(out); i++) await new Promise((r) => setTimeout(r, 50));
  if (!/Server listening/.test(out)) throw new Error(`sshd did not start:\n${out}`);
  return {
    port, user, dir, log: () => out,
    stop: () => { child.kill('SIGTERM'); fs.rmSync(dir, { recursive: true, force: true }); },
  };
}

/** The forced command template for a configuration file: this hearth (source or executable). */
export function servTemplate(dir: string): string {
  const serv = hearthScript(dir, 'hearth-serv', []);
  return `${serv} --config={config} serv key-{key_id}`;
}
