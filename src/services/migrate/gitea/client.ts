import fs from 'node:fs';
import { pipeline } from 'node:stream/promises';
import type { Dispatcher } from 'undici';
import { undici } from '../../../lib/lazy-require';

// The source's REST API, read the way Gitea's gitea_downloader does: `page`/`limit` paging until a
// short page, the token in the Authorization header (never in a URL or a log line), retries with
// exponential backoff on 5xx/429 and network errors, and every connection made through the
// [migrations] checking dispatcher.

export const PAGE_SIZE = 50;

export type ClientOptions = {
  baseUrl: string; owner: string; repo: string; token: string;
  dispatcher: Dispatcher; signal: AbortSignal; maxAttempts: number; retryBackoffMs: number;
};

export class SourceError extends Error {
  constructor(message: string, readonly status: number) {
    super(message);
  }
}

const retriable = (status: number) => status === 429 || status >= 500;

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason ?? new Error('aborted'));
    const timer = setTimeout(() => { signal.removeEventListener('abort', onAbort); resolve(); }, ms);
    const onAbort = () => { clearTimeout(timer); reject(signal.reason ?? new Error('aborted')); };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

export class GiteaClient {
  constructor(private readonly o: ClientOptions) {}

  get sourceOwner(): string { return this.o.owner; }
  get sourceRepo(): string { return this.o.repo; }

  /** True for a URL under the source's root (Gitea downloads release assets only from there). */
  isSourceUrl(raw: string): boolean {
    try {
      const url = new URL(raw);
      const base = new URL(this.o.baseUrl);
      return url.origin === base.origin && url.pathname.startsWith(base.pathname);
    } catch {
      return false;
    }
  }

  /** `api/v1/repos/{owner}/{repo}{sub}` on the source. */
  repoUrl(sub: string, query: Record<string, string | number> = {}): string {
    const url = new URL(`api/v1/repos/${encodeURIComponent(this.o.owner)}/${encodeURIComponent(this.o.repo)}${sub}`, this.o.baseUrl);
    for (const [k, v] of Object.entries(query)) url.searchParams.set(k, String(v));
    return url.toString();
  }

  private headers(): Record<string, string> {
    const h: Record<string, string> = { accept: 'application/json' };
    if (this.o.token) h.authorization = `token ${this.o.token}`;
    return h;
  }

  /** One request with the retry rule; the caller consumes (or dumps) the body of a 2xx answer. */
  private async send(url: string, headers: Record<string, string>): Promise<Dispatcher.ResponseData> {
    const attempts = Math.max(1, this.o.maxAttempts);
    let lastError: unknown;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      this.o.signal.throwIfAborted();
      try {
        const res = await undici().request(url, { method: 'GET', headers, dispatcher: this.o.dispatcher, signal: this.o.signal });
        if (res.statusCode >= 200 && res.statusCode < 300) return res;
        if (res.statusCode >= 300 && res.statusCode < 400 && res.headers.location) {
          await res.body.dump();
          return this.redirected(url, String(res.headers.location), headers);
        }
        const text = (await res.body.text().catch(() => '')).slice(0, 200);
        lastError = new SourceError(`source answered ${res.statusCode} for ${new URL(url).pathname}: ${text}`, res.statusCode);
        if (!retriable(res.statusCode)) throw lastError;
      } catch (err) {
        if (err instanceof SourceError && !retriable(err.status)) throw err;
        if (this.o.signal.aborted) throw this.o.signal.reason ?? err;
        lastError = err;
      }
      if (attempt < attempts) await sleep(this.o.retryBackoffMs * 2 ** (attempt - 1), this.o.signal);
    }
    throw lastError;
  }

  /** Redirects are followed by hand (a few hops), each through the checking dispatcher. */
  private redirectHops = 0;
  private async redirected(from: string, location: string, headers: Record<string, string>): Promise<Dispatcher.ResponseData> {
    if (++this.redirectHops > 5) throw new SourceError(`too many redirects from ${new URL(from).pathname}`, 310);
    const next = new URL(location, from);
    // Credentials stay with the host they were given for.
    const kept = next.host === new URL(from).host ? headers : { accept: headers.accept ?? '*/*' };
    try {
      return await this.send(next.toString(), kept);
    } finally {
      this.redirectHops--;
    }
  }

  async getJson<T>(url: string): Promise<T> {
    const res = await this.send(url, this.headers());
    return (await res.body.json()) as T;
  }

  /** Optional data (e.g. reviews on a source without them): 404 reads as undefined. */
  async tryJson<T>(url: string): Promise<T | undefined> {
    try {
      return await this.getJson<T>(url);
    } catch (err) {
      if (err instanceof SourceError && (err.status === 404 || err.status === 403)) return undefined;
      throw err;
    }
  }

  /** Pages of a list endpoint, one at a time: nothing beyond the current page is held. */
  async *pages<T>(sub: string, query: Record<string, string | number> = {}): AsyncGenerator<T[]> {
    let previous = '';
    for (let page = 1; ; page++) {
      const items = await this.getJson<T[] | null>(this.repoUrl(sub, { ...query, page, limit: PAGE_SIZE }));
      const list = Array.isArray(items) ? items : [];
      // A source that ignores `page` answers the first page again: stop rather than loop.
      const first = list.length ? JSON.stringify(list[0]) : '';
      if (page > 1 && first === previous) return;
      previous = first;
      if (list.length) yield list;
      if (list.length < PAGE_SIZE) return;
    }
  }

  /** A list the API does not page (an issue's comments, a comment's reactions). */
  async list<T>(sub: string): Promise<T[]> {
    const items = await this.getJson<T[] | null>(this.repoUrl(sub));
    return Array.isArray(items) ? items : [];
  }

  /** Data a source may not have (Gogs: no reactions, no reviews): 404/403 reads as an empty list. */
  async allOrNone<T>(sub: string): Promise<T[]> {
    try {
      return await this.all<T>(sub);
    } catch (err) {
      if (err instanceof SourceError && (err.status === 404 || err.status === 403)) return [];
      throw err;
    }
  }

  /** Every item of a (small) paged list: an issue's reactions, a pull's reviews. */
  async all<T>(sub: string, query: Record<string, string | number> = {}): Promise<T[]> {
    const out: T[] = [];
    for await (const page of this.pages<T>(sub, query)) out.push(...page);
    return out;
  }

  /**
   * Streams a file to disk. The token goes only to the source itself (an asset URL on another
   * host gets no credentials); the size written is returned.
   */
  async download(url: string, file: string): Promise<number> {
    const sameHost = new URL(url).host === new URL(this.o.baseUrl).host;
    const headers = sameHost ? { ...this.headers(), accept: '*/*' } : { accept: '*/*' };
    const res = await this.send(url, headers);
    await pipeline(res.body, fs.createWriteStream(file), { signal: this.o.signal });
    return fs.statSync(file).size;
  }
}
