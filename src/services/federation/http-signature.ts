import crypto from 'node:crypto';
import type { Config } from '../../config/schema';
import { allowlistAgent } from '../../lib/checked-lookup';
import { ForbiddenError } from '../../lib/errors';
import { hostMatcher } from '../../lib/host-matcher';
import { undici } from '../../lib/lazy-require';
import { ACTIVITY_JSON } from './actor';

// HTTP signatures (draft-cavage, as Mastodon, Gitea and Forgejo send them) on inbox requests.
// The signer's key is fetched from its keyId, through [federation] allowed_host_list. Stricter
// than Gitea's check: the signature must cover the request target, a body must come with a
// signed Digest that matches it, and a signed Date must be within 12 hours.

export type SignedRequest = { method: string; path: string; headers: Record<string, string | string[] | undefined>; body: Buffer };

const CLOCK_SKEW_MS = 12 * 3600 * 1000;
const FETCH_TIMEOUT_MS = 10_000;

const refused = (why: string) => new ForbiddenError(`request signature verification failed: ${why}`);

function parseSignature(headers: SignedRequest['headers']): Record<string, string> {
  const raw = String(headers.signature ?? '') || String(headers.authorization ?? '').replace(/^Signature\s+/i, '');
  const params: Record<string, string> = {};
  for (const m of raw.matchAll(/([a-zA-Z]+)="([^"]*)"/g)) params[m[1]!] = m[2]!;
  if (!params.keyId || !params.signature) throw refused('no Signature header');
  return params;
}

function signingString(req: SignedRequest, names: string[], params: Record<string, string>): string {
  return names.map((name) => {
    if (name === '(request-target)') return `${name}: ${req.method.toLowerCase()} ${req.path}`;
    if (name === '(created)' || name === '(expires)') return `${name}: ${params[name.slice(1, -1)] ?? ''}`;
    const value = req.headers[name];
    if (value === undefined) throw refused(`signed header ${name} is missing`);
    return `${name}: ${Array.isArray(value) ? value.join(', ') : value}`;
  }).join('\n');
}

function checkCoverage(req: SignedRequest, names: string[]): void {
  if (!names.includes('(request-target)')) throw refused('the signature does not cover (request-target)');
  if (req.body.length) {
    if (!names.includes('digest')) throw refused('the signature does not cover the Digest of the body');
    const digest = String(req.headers.digest ?? '');
    const sha256 = /SHA-256=([^,\s]+)/i.exec(digest)?.[1];
    if (sha256 !== crypto.createHash('sha256').update(req.body).digest('base64')) throw refused('Digest does not match the body');
  }
  if (names.includes('date')) {
    const at = Date.parse(String(req.headers.date));
    if (!Number.isFinite(at) || Math.abs(Date.now() - at) > CLOCK_SKEW_MS) throw refused('Date is missing or too far from now');
  }
}

/** The signer's public key: its actor document (or the key document itself) names it by keyId. */
async function fetchPublicKey(config: Config, keyId: string): Promise<crypto.KeyObject> {
  let url: URL;
  try { url = new URL(keyId); } catch { throw refused('keyId is not a URL'); }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw refused('keyId is not an http(s) URL');
  const matcher = hostMatcher(config.federation.allowed_host_list);
  const allows = (h: string, ip: string) => matcher.allows(h, ip);
  const refusal = (host: string, addrs: string[]) => `the key's host ${host} (${addrs.join(', ')}) is not allowed by [federation] allowed_host_list`;
  const fetchUrl = new URL(url.href);
  fetchUrl.hash = '';
  const agent = allowlistAgent(allows, refusal);
  try {
    const res = await undici().request(fetchUrl, {
      dispatcher: agent, headers: { accept: ACTIVITY_JSON }, headersTimeout: FETCH_TIMEOUT_MS, bodyTimeout: FETCH_TIMEOUT_MS,
    }).catch((e: Error) => { throw refused(`fetching ${fetchUrl.href}: ${e.message}`); });
    if (res.statusCode !== 200) { await res.body.dump(); throw refused(`fetching ${fetchUrl.href} answered ${res.statusCode}`); }
    const limit = config.federation.max_size * 1024 * 1024;
    let size = 0;
    const chunks: Buffer[] = [];
    for await (const chunk of res.body) {
      size += (chunk as Buffer).length;
      if (size > limit) throw refused(`the actor document is larger than ${config.federation.max_size} MiB`);
      chunks.push(chunk as Buffer);
    }
    return keyFrom(Buffer.concat(chunks).toString('utf8'), keyId);
  } finally {
    void agent.close();
  }
}

function keyFrom(text: string, keyId: string): crypto.KeyObject {
  let doc: { id?: string; publicKeyPem?: string; publicKey?: { id?: string; publicKeyPem?: string } };
  try { doc = JSON.parse(text); } catch { throw refused('the actor document is not JSON'); }
  const key = doc.publicKey?.id === keyId ? doc.publicKey : doc.id === keyId ? doc : undefined;
  if (!key?.publicKeyPem) throw refused(`cannot find publicKey with id ${keyId}`);
  try { return crypto.createPublicKey(key.publicKeyPem); } catch { throw refused('publicKeyPem is not a public key'); }
}

function verifies(algorithm: string, key: crypto.KeyObject, data: string, signature: Buffer): boolean {
  const algo = algorithm.toLowerCase();
  if (key.asymmetricKeyType === 'ed25519') return (algo === 'ed25519' || algo === 'hs2019') && crypto.verify(null, Buffer.from(data), key, signature);
  if (key.asymmetricKeyType !== 'rsa') return false;
  const hash = algo === 'rsa-sha512' ? 'sha512' : algo === 'rsa-sha256' || algo === 'hs2019' ? 'sha256' : '';
  return hash !== '' && crypto.verify(hash, Buffer.from(data), key, signature);
}

/** Throws ForbiddenError unless the request carries a valid signature; returns the signer's keyId. */
export async function verifyHttpSignature(config: Config, req: SignedRequest): Promise<string> {
  const params = parseSignature(req.headers);
  const names = (params.headers ?? 'date').toLowerCase().split(/\s+/).filter(Boolean);
  checkCoverage(req, names);
  const data = signingString(req, names, params);
  const key = await fetchPublicKey(config, params.keyId!);
  if (!verifies(params.algorithm ?? 'hs2019', key, data, Buffer.from(params.signature!, 'base64'))) throw refused('the signature does not match');
  return params.keyId!;
}
