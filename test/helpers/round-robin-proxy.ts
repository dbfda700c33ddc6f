import http from 'node:http';
import type { AddressInfo } from 'node:net';

// A small load balancer for several hearth nodes (issue 35): each request goes to the next
// upstream in turn, its body and the answer's streamed both ways (git's smart HTTP pushes and
// clones go through it). An upstream that does not answer (a node killed) gets a 502, as a load
// balancer without health checks would give. No vitest here: bench scripts run through tsx import it.

export type RoundRobinProxy = {
  url: string;
  /** The upstream base URLs, replaceable (a node restarted on another port). */
  upstreams: string[];
  /** Requests sent to each upstream, by index. */
  sent: number[];
  /** Sends every request to upstream `i` from now on; null goes back to turns. */
  pin: (i: number | null) => void;
  close: () => Promise<void>;
};

/** Headers of one hop only: never forwarded (RFC 9110, 7.6.1). */
const HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'upgrade', 'proxy-authorization', 'proxy-authenticate']);

const forwardable = (headers: http.IncomingHttpHeaders | http.IncomingMessage['headers']) =>
  Object.fromEntries(Object.entries(headers).filter(([k, v]) => v !== undefined && !HOP.has(k.toLowerCase())));

export async function startRoundRobinProxy(upstreams: string[]): Promise<RoundRobinProxy> {
  const sent = upstreams.map(() => 0);
  let turn = 0;
  let pinned: number | null = null;
  const agent = new http.Agent({ keepAlive: true });
  const server = http.createServer((req, res) => {
    const i = pinned ?? turn++ % upstreams.length;
    sent[i] = (sent[i] ?? 0) + 1;
    const target = new URL(req.url ?? '/', upstreams[i]);
    const badGateway = (err: Error) => {
      if (!res.headersSent) {
        res.writeHead(502, { 'Content-Type': 'application/json' })
          .end(JSON.stringify({ message: `upstream ${i} did not answer: ${err.message}`, url: '' }));
      } else {
        res.destroy(err);
      }
    };
    const upstream = http.request(target, { method: req.method, headers: forwardable(req.headers), agent }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage, forwardable(answer.headers));
      answer.pipe(res);
      answer.on('error', (err) => res.destroy(err));
    });
    upstream.on('error', badGateway);
    req.pipe(upstream);
    req.on('error', (err) => upstream.destroy(err));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    upstreams,
    sent,
    pin: (i) => { pinned = i; },
    close: () => new Promise<void>((resolve) => {
      agent.destroy();
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
