import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../src/services/packages/blob-store';
import { createRepo } from '../helpers/git';
import { as, basicHeader, createUser, ok, startTestServer, type TestServer } from '../helpers/server';

// Regression: an upload refused while its body was still arriving (an LFS object longer than its
// pointer says) had its socket destroyed before the reply finished, and the access log then read
// req.ip from the gone socket: an uncaught TypeError that stopped the whole server.

let s: TestServer;
let alice: { username: string; password: string; id: number };

beforeAll(async () => {
  s = await startTestServer();
  alice = await createUser(s, 'alice');
  await createRepo(s, alice, 'files');
});
afterAll(async () => { await s.stop(); });

/** A PUT whose body is streamed in pieces, as a large upload arrives; the status, or the error. */
function streamedPut(path: string, pieces: number, piece: Buffer): Promise<number | string> {
  return new Promise((resolve) => {
    const req = http.request(new URL(path, s.hearth.config.server.root_url), {
      method: 'PUT', agent: false,
      headers: { Authorization: basicHeader(alice.username, alice.password), 'Content-Type': 'application/octet-stream', 'Content-Length': pieces * piece.length },
    }, (res) => { res.resume(); resolve(res.statusCode!); });
    req.on('error', (err) => resolve((err as NodeJS.ErrnoException).code ?? String(err)));
    let sent = 0;
    const more = () => {
      while (sent < pieces) {
        sent++;
        if (!req.write(piece)) { req.once('drain', more); return; }
      }
      req.end();
    };
    more();
  });
}

describe('a body refused while it is still arriving', () => {
  it('gets its 4xx (or a closed connection) and the server goes on answering', async () => {
    // In hearth's own process an uncaught exception ends the server: none may happen.
    const uncaught: unknown[] = [];
    const record = (err: unknown) => { uncaught.push(err); };
    process.on('uncaughtException', record);
    const small = Buffer.from('ten bytes!');
    const oid = crypto.createHash('sha256').update(small).digest('hex');
    const outcome = await streamedPut(`alice/files.git/info/lfs/objects/${oid}/${small.length}`, 64, Buffer.alloc(64 * 1024, 7));
    expect(typeof outcome === 'number' ? outcome >= 400 && outcome < 500 : ['ECONNRESET', 'EPIPE'].includes(outcome)).toBe(true);
    // Still alive, and the object was not stored.
    await new Promise((r) => setTimeout(r, 200));
    expect(await ok(await s.request('api/v1/version'))).toHaveProperty('version');
    const res = await s.request(`alice/files.git/info/lfs/objects/${oid}`, { auth: as(alice) });
    expect(res.status).toBe(404);
    // No temp file left behind either.
    const temp = tempDir(s.hearth.config.server.data_dir);
    expect(fs.existsSync(temp) ? fs.readdirSync(temp) : []).toEqual([]);
    process.off('uncaughtException', record);
    expect(uncaught).toEqual([]);
  });
});
