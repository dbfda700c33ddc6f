import crypto from 'node:crypto';

// ACTIONS_RUNTIME_TOKEN (the task context's gitea_runtime_token), as Gitea's
// services/actions/auth.go makes it: an HS256 JWT whose `scp` claim
// `Actions.Results:<run>:<job>` the artifact toolkit (@actions/artifact v2) reads to name the
// run and job it uploads for. Signed with a key derived from the instance secret.

export type RuntimeClaims = { taskId: number; runId: number; jobId: number };

const b64url = (b: Buffer | string) => Buffer.from(b).toString('base64url');
const keyOf = (secret: string) => crypto.createHmac('sha256', secret).update('actions-runtime-token').digest();

export function createRuntimeToken(secret: string, c: RuntimeClaims, ttlSeconds = 24 * 3600): string {
  const now = Math.floor(Date.now() / 1000);
  const header = b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const body = b64url(JSON.stringify({
    exp: now + ttlSeconds, nbf: now, scp: `Actions.Results:${c.runId}:${c.jobId}`,
    TaskID: c.taskId, RunID: c.runId, JobID: c.jobId, ac: JSON.stringify([{ Scope: '', Permission: 2 }]),
  }));
  const sig = b64url(crypto.createHmac('sha256', keyOf(secret)).update(`${header}.${body}`).digest());
  return `${header}.${body}.${sig}`;
}

/** The claims of a valid, unexpired token; null otherwise. */
export function verifyRuntimeToken(secret: string, token: string): RuntimeClaims | null {
  const [header, body, sig] = token.split('.');
  if (!header || !body || !sig) return null;
  const want = crypto.createHmac('sha256', keyOf(secret)).update(`${header}.${body}`).digest();
  const got = Buffer.from(sig, 'base64url');
  if (got.length !== want.length || !crypto.timingSafeEqual(got, want)) return null;
  try {
    const c = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Record<string, unknown>;
    const now = Math.floor(Date.now() / 1000);
    if (typeof c.exp !== 'number' || c.exp < now || (typeof c.nbf === 'number' && c.nbf > now + 60)) return null;
    return { taskId: Number(c.TaskID), runId: Number(c.RunID), jobId: Number(c.JobID) };
  } catch {
    return null;
  }
}
