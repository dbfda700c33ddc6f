import net from 'node:net';

// Gitea's hostmatcher ([webhook] ALLOWED_HOST_LIST, [migrations] ALLOWED_DOMAINS): a comma list
// of built-in names (`external`, `private`, `loopback`, `*`), CIDR ranges and host-name globs.
// It is checked against the address actually connected to, so a public name that resolves to
// 127.0.0.1 is still refused under `external`.

const RANGES: Record<'loopback' | 'private' | 'special', [string, number, 'ipv4' | 'ipv6'][]> = {
  loopback: [['127.0.0.0', 8, 'ipv4'], ['::1', 128, 'ipv6']],
  // Go's IP.IsPrivate: RFC 1918 and unique local IPv6.
  private: [['10.0.0.0', 8, 'ipv4'], ['172.16.0.0', 12, 'ipv4'], ['192.168.0.0', 16, 'ipv4'], ['fc00::', 7, 'ipv6']],
  // Neither external nor private: unspecified, link-local, multicast, reserved.
  special: [
    ['0.0.0.0', 8, 'ipv4'], ['169.254.0.0', 16, 'ipv4'], ['224.0.0.0', 4, 'ipv4'], ['240.0.0.0', 4, 'ipv4'],
    ['::', 128, 'ipv6'], ['fe80::', 10, 'ipv6'], ['ff00::', 8, 'ipv6'],
  ],
};

function listOf(kind: keyof typeof RANGES): net.BlockList {
  const b = new net.BlockList();
  for (const [addr, prefix, type] of RANGES[kind]) b.addSubnet(addr, prefix, type);
  return b;
}

const LOOPBACK = listOf('loopback');
const PRIVATE = listOf('private');
const SPECIAL = listOf('special');

/** `::ffff:1.2.3.4` is 1.2.3.4. */
export function normalizeIp(ip: string): { ip: string; family: 'ipv4' | 'ipv6' } {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return { ip: mapped[1]!, family: 'ipv4' };
  return { ip, family: net.isIPv6(ip) ? 'ipv6' : 'ipv4' };
}

export type HostMatcher = { allows: (host: string, ip: string) => boolean; describe: string };

const globToRegExp = (g: string) => new RegExp(`^${g.toLowerCase().replace(/[.+^${}()|[\]\\?]/g, '\\$&').replace(/\*/g, '.*')}$`);

export function hostMatcher(list: string): HostMatcher {
  const items = list.split(',').map((s) => s.trim().toLowerCase()).filter(Boolean);
  const builtins = new Set(items.filter((i) => ['external', 'private', 'loopback', '*'].includes(i)));
  const cidrs = new net.BlockList();
  const globs: RegExp[] = [];
  for (const item of items) {
    if (builtins.has(item)) continue;
    const [addr, bits] = item.split('/');
    if (bits !== undefined && net.isIP(addr!)) cidrs.addSubnet(addr!, Number(bits), net.isIPv6(addr!) ? 'ipv6' : 'ipv4');
    else if (net.isIP(item)) cidrs.addAddress(item, net.isIPv6(item) ? 'ipv6' : 'ipv4');
    else globs.push(globToRegExp(item));
  }
  const allows = (host: string, rawIp: string): boolean => {
    if (builtins.has('*')) return true;
    if (globs.some((g) => g.test(host.toLowerCase()))) return true;
    const { ip, family } = normalizeIp(rawIp);
    if (!net.isIP(ip)) return false;
    if (cidrs.check(ip, family)) return true;
    const loopback = LOOPBACK.check(ip, family);
    const priv = PRIVATE.check(ip, family);
    if (builtins.has('loopback') && loopback) return true;
    if (builtins.has('private') && priv) return true;
    return builtins.has('external') && !loopback && !priv && !SPECIAL.check(ip, family);
  };
  return { allows, describe: items.join(',') || '(nothing)' };
}
