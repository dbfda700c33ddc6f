import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';

// Keep-alive behind a load balancer: an idle connection stays open longer than the balancer's
// own idle timeout (so hearth never closes one the balancer is about to reuse), and a stop still
// ends promptly when a request was in flight on a kept-alive connection.

let s: TestServer;
beforeAll(async () => { s = await startTestServer(); }, 60_000);
afterAll(async () => { await s?.stop(); });

/** One GET through `agent`; its status, whether it went over a reused socket, its Keep-Alive header. */
const get = (agent: http.Agent, p: string) => new Promise<{ status: number; reused: boolean; keepAlive: string }>((resolve, reject) => {
  const req = http.get(new URL(p, s.hearth.config.server.root_url), { agent }, (res) => {
    res.resume();
    res.on('end', () => resolve({ status: res.statusCode!, reused: req.reusedSocket, keepAlive: String(res.headers['keep-alive']) }));
  });
  req.on('error', reject);
});

it('keeps an idle connection open past a few seconds and announces 65 s', async () => {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const first = await get(agent, 'api/v1/version');
    expect(first).toEqual({ status: 200, reused: false, keepAlive: 'timeout=65' });
    // Node's agent drops a socket a second before the announced timeout: at 4 s with the old 5 s.
    await new Promise((r) => setTimeout(r, 6_000));
    expect(await get(agent, 'api/v1/version')).toEqual({ status: 200, reused: true, keepAlive: 'timeout=65' });
  } finally {
    agent.destroy();
  }
}, 30_000);

it('stops promptly while a request is in flight on a kept-alive connection', async () => {
  const { port } = new URL(s.hearth.config.server.root_url);
  const socket = net.connect(Number(port), '127.0.0.1');
  await new Promise((r) => socket.once('connect', r));
  let answer = '';
  socket.on('data', (b) => { answer += b; });
  socket.on('error', () => { /* closed by the server's stop */ });
  // Headers not finished yet: the request is in flight when the stop begins.
  socket.write('GET /api/v1/version HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n');
  await new Promise((r) => setTimeout(r, 200));
  const t0 = Date.now();
  const closed = s.close();
  socket.write('\r\n');
  await closed;
  expect(Date.now() - t0).toBeLessThan(10_000);
  expect(answer).toMatch(/^HTTP\/1\.1 200/);
  socket.destroy();
}, 60_000);
