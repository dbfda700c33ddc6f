import crypto from 'node:crypto';
import type { Dispatcher } from 'undici';
import type { Config } from '../../config/schema';
import type { HookTask, Webhook } from '../../db/schema';
import { allowlistAgent } from '../../lib/checked-lookup';
import { undici } from '../../lib/lazy-require';
import { hostMatcher, type HostMatcher } from '../../lib/host-matcher';
import { getHookTask, recordHookDelivery } from '../../models/hook-task';
import { getWebhookById, setWebhookLastStatus } from '../../models/webhook';
import { RetryableError, type JobContext } from '../jobs/queue';
import { countWebhookDelivery } from '../metrics/registry';
import { buildRequest, type HookEvent } from './formats';
import { hookAuthorization, hookSecret, hookTarget } from './hook-row';
import type { DeliverJob } from './dispatch';
import type { Hearth } from '../../hearth';

// One delivery attempt (a durable job): the request each hook type sends, with Gitea's headers
// and signatures, over a connection whose address passed [webhook] allowed_host_list. Beyond
// Gitea (which never retries): a network error, a timeout, a 429 or a 5xx is tried again with
// the same delivery UUID; any 2xx is success. Request and response are kept on the task
// (bodies up to 1 MiB).

const KEEP_BODY = 1024 * 1024;
const ORG_HOOK_TARGET = 'organization';

const refusal = (host: string, addresses: string[]) =>
  `webhook can only call allowed HTTP servers (check your [webhook] allowed_host_list setting), deny '${host}(${addresses.join(', ')})'`;

function dispatcherOf(config: Config, matcher: HostMatcher): Dispatcher {
  const rejectUnauthorized = !config.webhook.skip_tls_verify;
  if (config.webhook.proxy_url) return new (undici().ProxyAgent)({ uri: config.webhook.proxy_url, requestTls: { rejectUnauthorized } });
  return allowlistAgent((h, ip) => matcher.allows(h, ip), refusal, { rejectUnauthorized, keepAliveTimeout: 10_000, connections: 16 });
}

const hmac = (algo: 'sha1' | 'sha256', secret: string, body: string) => (secret ? crypto.createHmac(algo, secret).update(body).digest('hex') : '');

function headersOf(task: HookTask, hook: Webhook, secret: string, authorization: string, signed: string, defaults: boolean): Record<string, string> {
  if (!defaults) return {};
  const sha1 = hmac('sha1', secret, signed);
  const sha256 = hmac('sha256', secret, signed);
  const target = hook.repo_id ? 'repository' : ORG_HOOK_TARGET;
  const h: Record<string, string> = {
    'User-Agent': 'Go-http-client/1.1',
    'X-Gitea-Delivery': task.uuid, 'X-Gitea-Event': task.event, 'X-Gitea-Event-Type': task.event_type,
    'X-Gitea-Signature': sha256, 'X-Gitea-Hook-Installation-Target-Type': target,
    'X-Gogs-Delivery': task.uuid, 'X-Gogs-Event': task.event, 'X-Gogs-Event-Type': task.event_type, 'X-Gogs-Signature': sha256,
    'X-Hub-Signature': `sha1=${sha1}`, 'X-Hub-Signature-256': `sha256=${sha256}`,
    'X-GitHub-Delivery': task.uuid, 'X-GitHub-Event': task.event, 'X-GitHub-Event-Type': task.event_type,
    'X-GitHub-Hook-Installation-Target-Type': target,
  };
  if (authorization) h.Authorization = authorization;
  return h;
}

type Sent = { status: number; headers: Record<string, string>; body: string; error: string };

type Sender = { dispatcher: () => Dispatcher; config: Config };

async function send({ dispatcher, config }: Sender, url: string, method: string, headers: Record<string, string>, body: string | undefined, lease: AbortSignal): Promise<Sent> {
  const timeout = config.webhook.deliver_timeout * 1000;
  try {
    const res = await undici().request(url, {
      method: method as Dispatcher.HttpMethod, headers, body, dispatcher: dispatcher(), headersTimeout: timeout, bodyTimeout: timeout,
      signal: AbortSignal.any([AbortSignal.timeout(timeout), lease]),
    });
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body) {
      if (size < KEEP_BODY) chunks.push(chunk as Buffer);
      size += (chunk as Buffer).length;
    }
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(res.headers)) out[k] = Array.isArray(v) ? v.join(', ') : String(v ?? '');
    return { status: res.statusCode, headers: out, body: Buffer.concat(chunks).subarray(0, KEEP_BODY).toString('utf8'), error: '' };
  } catch (err) {
    const e = err as Error & { cause?: Error };
    return { status: 0, headers: {}, body: '', error: e.cause?.message ?? e.message };
  }
}

/** Network errors, timeouts, 429 and 5xx; a refused address will not change by itself. */
const retryable = (s: Sent) => (s.status === 0 && !/allowed_host_list/.test(s.error)) || s.status === 429 || s.status >= 500;

/** The job handler of webhook.deliver. */
export function deliverJob(h: Hearth, instanceSecret: string) {
  const matcher = hostMatcher(h.config.webhook.allowed_host_list);
  // Made with the first delivery: undici loads then, not at start.
  let dispatcher: Dispatcher | undefined;
  const sender: Sender = { dispatcher: () => (dispatcher ??= dispatcherOf(h.config, matcher)), config: h.config };
  return async (payload: DeliverJob, ctx: JobContext): Promise<void> => {
    const task = await getHookTask(h.db, payload.taskId);
    const hook = task && (await getWebhookById(h.db, task.hook_id));
    // A hook deleted or switched off since: its pending deliveries are dropped, as Gitea.
    if (!task || !hook || !hook.is_active) return;
    const secret = hookSecret(instanceSecret, hook);
    const authorization = hookAuthorization(instanceSecret, hook);
    const req = buildRequest(hookTarget(hook), task.event_type as HookEvent, JSON.parse(task.payload_content) as Record<string, unknown>);
    if (!req) return;
    const headers = headersOf(task, hook, secret, authorization, req.signedBody, req.defaultHeaders);
    if (req.body) headers['Content-Type'] = req.contentType;
    const started = Date.now();
    const sent = await send(sender, req.url, req.method, headers, req.body || undefined, ctx.signal);
    // This node lost the job's lease meanwhile: the delivery is another node's to send and record.
    ctx.signal.throwIfAborted();
    const durationMs = Date.now() - started;
    const succeeded = sent.status >= 200 && sent.status < 300;
    const shown = { ...headers, ...(headers.Authorization ? { Authorization: '***' } : {}) };
    // Recorded only under this node's lease: a node that stalled past it must not write its late
    // outcome over the one of the node that sent the delivery again meanwhile.
    const recorded = await h.db.transaction().execute(async (trx) => {
      if (!(await ctx.holdsLease(trx))) return false;
      await recordHookDelivery(trx, task.id, {
        attempts: ctx.attempt, succeeded, statusCode: sent.status, durationMs, at: Date.now(),
        request: JSON.stringify({ url: req.url, http_method: req.method, headers: shown, body: req.signedBody.slice(0, KEEP_BODY) }),
        response: JSON.stringify({ status: sent.status, headers: sent.headers, body: sent.error ? sent.error : sent.body }),
      });
      await setWebhookLastStatus(trx, hook.id, succeeded ? 1 : 2);
      return true;
    });
    // Counted as recorded: a delivery whose outcome is the other node's counts there, once.
    if (recorded) countWebhookDelivery(succeeded);
    ctx.signal.throwIfAborted();
    if (retryable(sent)) throw new RetryableError(sent.error || `HTTP ${sent.status}`);
  };
}
