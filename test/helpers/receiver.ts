import http from 'node:http';
import type { AddressInfo } from 'node:net';

// A local HTTP receiver for webhook tests: records every request; `answer` decides the status.

export type Received = { method: string; url: string; headers: http.IncomingHttpHeaders; body: string; at: number };

export type Receiver = {
  url: string;
  requests: Received[];
  /** The status to answer the nth request (0-based) with; 200 by default. */
  answer: (fn: (req: Received, n: number) => number | 'hang') => void;
  /** Requests whose X-Gitea-Event-Type (or event) is `type`. */
  of: (type: string) => Received[];
  close: () => Promise<void>;
};

/** `holdMs`: how long each answer waits (a slow receiver), counted from the request's arrival. */
export async function startReceiver(opts: { holdMs?: number } = {}): Promise<Receiver> {
  const requests: Received[] = [];
  let decide: (req: Received, n: number) => number | 'hang' = () => 200;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r: Received = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
      const status = decide(r, requests.length);
      requests.push(r);
      if (status === 'hang') return;
      const answer = () => res.writeHead(status, { 'Content-Type': 'text/plain', 'X-Receiver': 'test' }).end(`answered ${status}`);
      // A sender killed meanwhile has closed the socket: the late answer goes nowhere.
      if (opts.holdMs) setTimeout(() => { if (!res.destroyed) answer(); }, opts.holdMs);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    requests,
    answer: (fn) => { decide = fn; },
    of: (type) => requests.filter((r) => r.headers['x-gitea-event-type'] === type),
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
