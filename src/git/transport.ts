import { spawn, type ChildProcess } from 'node:child_process';
import { gitEnv } from './exec';

export type GitService = 'upload-pack' | 'receive-pack' | 'upload-archive';

/**
 * `git <service>` on a bare repository, `--stateless-rpc` unless stateless is false (SSH: one
 * conversation); the caller pipes stdin and stdout.
 */
export function spawnService(
  service: GitService, dir: string,
  opts: { protocol?: string; advertise?: boolean; stateless?: boolean; env?: Record<string, string>; config?: string[] },
): ChildProcess {
  const env: Record<string, string> = { ...opts.env };
  // Only pass through what git itself would accept as a protocol request (version=2, etc.).
  if (opts.protocol && /^[\w=:.,-]+$/.test(opts.protocol)) env.GIT_PROTOCOL = opts.protocol;
  const configArgs = (opts.config ?? []).flatMap((c) => ['-c', c]);
  const stateless = opts.stateless !== false && service !== 'upload-archive';
  const args = [...configArgs, service, ...(stateless ? ['--stateless-rpc'] : []), ...(opts.advertise ? ['--advertise-refs'] : []), dir];
  return spawn('git', args, { env: gitEnv({ env }), stdio: ['pipe', 'pipe', 'pipe'] });
}

/** The pkt-line `# service=git-<service>` header and flush that precede a v0/v1 advertisement. */
export function serviceHeader(service: Exclude<GitService, 'upload-archive'>): Buffer {
  const line = `# service=git-${service}\n`;
  const len = (line.length + 4).toString(16).padStart(4, '0');
  return Buffer.from(`${len}${line}0000`);
}
