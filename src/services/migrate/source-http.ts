import fs from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { pipeline } from 'node:stream/promises';
import type { Dispatcher } from 'undici';
import { undici } from '../../lib/lazy-require';
import { quotaWait, rateLimitWait } from './rate-limit';

// A source's REST API as every downloader reads it: credentials in headers (never in a URL or a
// log line) and only to the source's own host, retries with exponential backoff on 5xx and
// network errors, the waits the source's rate limits ask for (not counted as attempts, bounded
// by the migration's time limit), redirects followed by hand, and every connection made through
// the [migrations] checking dispatcher.

export type HttpOptions = {
  dispatcher: Dispatcher; signal: AbortSignal; maxAttempts: number; retryBackoffMs: number;
  /** When the migration must be done (epoch ms): a rate limit resetting later fails at once. */
  deadline?: number;
};

export class SourceError extends Error {
  constructor(message: string, readonly status: number) {
    super(message);
  }
}

export type SourceResponse = { status: number; headers: IncomingHttpHeaders; body: Dispatcher.ResponseData['body'] };
export type RequestInit = { method?: string; headers?: Record<string, string>; body?: string };

const retriable = (status: number) => status >= 500;
const MAX_RATE_WAITS = 100;

export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason ?? new Error('aborted'));
    const timer = setTimeout(() => { signal.removeEventListener('abort', onAbort); resolve(); }, ms);
    const onAbort = () => { clearTimeout(timer); reject(signal.reason ?? new Error('aborted')); };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

export class SourceHttp {
  /** Set after an answer that used up the window: the next request waits until then. */
  private resumeAt = 0;
  private redirectHops = 0;

  /** `authHeaders` go only to `host` (the source's API host). */
  constructor(private readonly o: HttpOptions, private readonly host: string, private readonly authHeaders: () => Record<string, string>) {}

  get signal(): AbortSignal { return this.o.signal; }

  private async wait(ms: number, why: string): Promise<void> {
    if (this.o.deadline && Date.now() + ms > this.o.deadline) {
      throw new SourceError(`the source's rate limit (${why}) resets after the migration's time limit`, 429);
    }
    await sleep(ms, this.o.signal);
  }

  private headersFor(url: string, extra: Record<string, string>): Record<string, string> {
    const own = new URL(url).host === this.host;
    return { accept: 'application/json', ...(own ? this.authHeaders() : {}), ...extra };
  }

  /** One request with the retry and rate-limit rules; a 2xx answer's body is the caller's. */
  async send(url: string, init: RequestInit = {}): Promise<SourceResponse> {
    const attempts = Math.max(1, this.o.maxAttempts);
    let lastError: unknown;
    let rateWaits = 0;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      this.o.signal.throwIfAborted();
      if (this.resumeAt > Date.now()) await this.wait(this.resumeAt - Date.now(), 'quota used up');
      try {
        const res = await undici().request(url, {
          method: (init.method ?? 'GET') as Dispatcher.HttpMethod, headers: this.headersFor(url, init.headers ?? {}), body: init.body,
          dispatcher: this.o.dispatcher, signal: this.o.signal,
        });
        const status = res.statusCode;
        // Whatever the answer, it may have used the window's last request.
        const q = quotaWait(res.headers);
        this.resumeAt = q ? Date.now() + q : 0;
        if (status >= 200 && status < 300) return { status, headers: res.headers, body: res.body };
        if (status >= 300 && status < 400 && res.headers.location) {
          await res.body.dump();
          return await this.redirected(url, String(res.headers.location), init);
        }
        const text = (await res.body.text().catch(() => '')).slice(0, 200);
        lastError = new SourceError(`source answered ${status} for ${new URL(url).pathname}: ${text}`, status);
        const rateWait = rateLimitWait(status, res.headers, Date.now(), text);
        if (rateWait !== null && rateWaits++ < MAX_RATE_WAITS) {
          this.resumeAt = 0; // the refusal says how long; that wait is enough
          await this.wait(rateWait, `${status}`);
          attempt--; // a rate-limit wait is not a failed attempt
          continue;
        }
        if (!retriable(status)) throw lastError;
      } catch (err) {
        if (err instanceof SourceError && !retriable(err.status)) throw err;
        if (this.o.signal.aborted) throw this.o.signal.reason ?? err;
        lastError = err;
      }
      if (attempt < attempts) await sleep(this.o.retryBackoffMs * 2 ** (attempt - 1), this.o.signal);
    }
    if (lastError instanceof SourceError) throw lastError;
    // A source that cannot be reached is the source's failure, not ours.
    throw new SourceError(`could not reach ${new URL(url).host}: ${lastError instanceof Error ? lastError.message : String(lastError)}`, 0);
  }

  /** Redirects: a few hops, each checked again; credentials stay with the source's host. */
  private async redirected(from: string, location: string, init: RequestInit): Promise<SourceResponse> {
    if (++this.redirectHops > 5) throw new SourceError(`too many redirects from ${new URL(from).pathname}`, 310);
    try {
      return await this.send(new URL(location, from).toString(), init.method === 'POST' ? init : { headers: init.headers });
    } finally {
      this.redirectHops--;
    }
  }

  async json<T>(url: string, init?: RequestInit): Promise<{ data: T; headers: IncomingHttpHeaders }> {
    const res = await this.send(url, init);
    return { data: (await res.body.json()) as T, headers: res.headers };
  }

  async getJson<T>(url: string, init?: RequestInit): Promise<T> {
    return (await this.json<T>(url, init)).data;
  }

  /** Optional data (a feature the source lacks or hides): 404 and 403 read as undefined. */
  async tryJson<T>(url: string, init?: RequestInit): Promise<T | undefined> {
    try {
      return await this.getJson<T>(url, init);
    } catch (err) {
      if (err instanceof SourceError && (err.status === 404 || err.status === 403)) return undefined;
      throw err;
    }
  }

  async text(url: string, init?: RequestInit): Promise<string> {
    return (await this.send(url, init)).body.text();
  }

  /** Streams a file to disk; the size written. */
  async download(url: string, file: string, headers: Record<string, string> = { accept: '*/*' }): Promise<number> {
    const res = await this.send(url, { headers });
    await pipeline(res.body, fs.createWriteStream(file), { signal: this.o.signal });
    return fs.statSync(file).size;
  }
}

/** True for `raw` under `base` (same origin, path below): what a source may have us download. */
export function isUnder(raw: string, base: string): boolean {
  try {
    const url = new URL(raw);
    const root = new URL(base);
    return url.origin === root.origin && url.pathname.startsWith(root.pathname);
  } catch {
    return false;
  }
}
