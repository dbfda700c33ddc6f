// A small round-robin HTTP load balancer for the cluster bench: each request goes to the next
// backend in turn (no stickiness, as the README's "Running several nodes" allows), its body and
// the answer streamed through untouched, so git's smart HTTP passes as any JSON call does.
// The backends can be changed between phases (`setBackends`) without a new port: a bench's one
// node and two nodes then pay the same proxy hop.
import http from 'node:http';

/** Starts the proxy on a loopback port the kernel picks; `backends` are base URLs. */
export async function startRoundRobinProxy(backends) {
  let targets = backends.map((b) => new URL(b));
  let next = 0;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const server = http.createServer((req, res) => {
    const target = targets[next++ % targets.length];
    const upstream = http.request({
      host: target.hostname, port: target.port, method: req.method, path: req.url, agent,
      headers: { ...req.headers, host: target.host, 'x-forwarded-for': req.socket.remoteAddress },
    }, (answer) => {
      res.writeHead(answer.statusCode, answer.headers);
      answer.pipe(res);
    });
    // A backend that is gone answers 502, as a balancer would; the bench counts it as an error.
    upstream.on('error', (err) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: `proxy: ${err.message}`, url: '' }));
    });
    req.pipe(upstream);
  });
  server.keepAliveTimeout = 5_000;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    base: `http://127.0.0.1:${port}/`,
    /** The backends requests go to from now on. */
    setBackends(list) { targets = list.map((b) => new URL(b)); next = 0; },
    close: () => new Promise((resolve) => { agent.destroy(); server.close(resolve); server.closeAllConnections(); }),
  };
}
