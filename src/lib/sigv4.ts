import crypto from 'node:crypto';

// AWS Signature Version 4 for a request's headers (what CodeCommit's API requires), written to
// AWS's published description: a canonical request (method, path, sorted query, sorted signed
// headers, payload hash), the string to sign over its hash and the credential scope, and a key
// derived from the secret through the date, region and service. Checked against AWS's test suite.

export type SigV4Credentials = { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
export type SigV4Scope = { region: string; service: string };
export type SigV4Request = { method: string; url: URL; headers: Record<string, string>; body?: string | Buffer };

const sha256 = (data: string | Buffer) => crypto.createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string) => crypto.createHmac('sha256', key).update(data).digest();

/** RFC 3986 percent-encoding: everything but A-Z a-z 0-9 - . _ ~. */
export function uriEncode(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** `20150830T123600Z` */
export const amzDate = (d: Date): string => d.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');

function canonicalPath(url: URL): string {
  const segments = url.pathname.split('/').map((s) => uriEncode(decodeURIComponent(s)));
  return segments.join('/') || '/';
}

function canonicalQuery(url: URL): string {
  const pairs = [...url.searchParams.entries()].map(([k, v]) => [uriEncode(k), uriEncode(v)] as const);
  pairs.sort((a, b) => (a[0] === b[0] ? (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0) : a[0] < b[0] ? -1 : 1));
  return pairs.map(([k, v]) => `${k}=${v}`).join('&');
}

function canonicalHeaders(headers: Record<string, string>): { text: string; signed: string } {
  const entries = Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v.trim().replace(/\s+/g, ' ')] as const);
  entries.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return { text: entries.map(([k, v]) => `${k}:${v}\n`).join(''), signed: entries.map(([k]) => k).join(';') };
}

export function signingKey(secret: string, date: string, scope: SigV4Scope): Buffer {
  return hmac(hmac(hmac(hmac(`AWS4${secret}`, date), scope.region), scope.service), 'aws4_request');
}

/**
 * The signature of a request whose headers already hold `host` and `x-amz-date` (and any other
 * header to sign): every header given is signed.
 */
export function signature(req: SigV4Request, creds: SigV4Credentials, scope: SigV4Scope): { signature: string; signedHeaders: string; credentialScope: string } {
  const date = req.headers['x-amz-date'] ?? req.headers['X-Amz-Date'];
  if (!date) throw new Error('x-amz-date is required');
  const headers = canonicalHeaders(req.headers);
  const canonical = [
    req.method.toUpperCase(), canonicalPath(req.url), canonicalQuery(req.url), headers.text, headers.signed, sha256(req.body ?? ''),
  ].join('\n');
  const credentialScope = `${date.slice(0, 8)}/${scope.region}/${scope.service}/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', date, credentialScope, sha256(canonical)].join('\n');
  const sig = crypto.createHmac('sha256', signingKey(creds.secretAccessKey, date.slice(0, 8), scope)).update(toSign).digest('hex');
  return { signature: sig, signedHeaders: headers.signed, credentialScope };
}

/** The headers to send: the given ones with host, x-amz-date, the session token and Authorization. */
export function signRequest(req: SigV4Request, creds: SigV4Credentials, scope: SigV4Scope, now = new Date()): Record<string, string> {
  const headers: Record<string, string> = { ...req.headers, host: req.url.host, 'x-amz-date': amzDate(now) };
  if (creds.sessionToken) headers['x-amz-security-token'] = creds.sessionToken;
  const s = signature({ ...req, headers }, creds, scope);
  headers.authorization = `AWS4-HMAC-SHA256 Credential=${creds.accessKeyId}/${s.credentialScope}, SignedHeaders=${s.signedHeaders}, Signature=${s.signature}`;
  return headers;
}
