import type { Config } from '../config/schema';
import { hostOf } from './url-host';

// Clone URLs as Gitea composes them, for the API (ssh_url) and the web pages' clone box.

/** The built-in server's port: [server] ssh_listen_port, else 2222, or 22 when run as root. */
export const sshListenPort = ({ server: s }: Config): number => s.ssh_listen_port ?? (process.getuid?.() === 0 ? 22 : 2222);

/**
 * The port clients reach SSH on: [server] ssh_port, else the built-in server's (the one it
 * listens on once started), else 22 (the system sshd, running `hearth serv`).
 */
export const sshPortOf = (config: Config): number => config.server.ssh_port || (config.server.start_ssh_server && sshListenPort(config)) || 22;

/**
 * `git@host:owner/repo.git` on port 22, `ssh://git@host:PORT/owner/repo.git` on any other; the
 * host is [server] ssh_domain, else root_url's.
 */
export function sshCloneUrl(config: Config, ownerName: string, repoName: string): string {
  const { ssh_user: user } = config.server;
  const domain = config.server.ssh_domain || hostOf(config.server.root_url);
  const host = domain.includes(':') && !domain.startsWith('[') ? `[${domain}]` : domain;
  const port = sshPortOf(config);
  const path = `${encodeURIComponent(ownerName)}/${encodeURIComponent(repoName)}.git`;
  return port === 22 ? `${user}@${host}:${path}` : `ssh://${user}@${host}:${port}/${path}`;
}

/** The HTTP(S) clone URL under root_url. */
export const httpCloneUrl = (config: Config, ownerName: string, repoName: string): string =>
  `${config.server.root_url}${encodeURIComponent(ownerName)}/${encodeURIComponent(repoName)}.git`;
