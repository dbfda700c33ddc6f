import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load';
import { startServer, type RunningServer } from '../../src/server';
import { clusterEnv, freshDatabase } from '../helpers/cluster';
import { postgresInstalled, startPostgres, withPostgres, type TempPostgres } from '../helpers/postgres';
import { startTestS3, type TestS3 } from '../helpers/s3';
import { basicHeader, SSH_OFF } from '../helpers/server';

// A container blob pushed in chunks through two hearth nodes over one PostgreSQL database and
// one bucket: each chunk lands on the other node than the one before, the last PUT too, and the
// blob comes out whole with its digest from either node. Nothing of the session is in a node's
// memory or data directory: its offset and the multipart upload's state are in the database.

let pg: TempPostgres;
let s3: TestS3;
beforeAll(async () => {
  if (!postgresInstalled) return;
  pg = startPostgres();
  s3 = await startTestS3();
}, 60_000);
afterAll(async () => { await s3?.stop(); pg?.stop(); });

const MiB = 1024 * 1024;
const sha256 = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');

async function startNode(url: string, dataDir: string): Promise<RunningServer> {
  const env = {
    HEARTH__LOG__LEVEL: 'silent', ...SSH_OFF, ...clusterEnv(url), ...s3.env('nodes'),
    // Every node signs and reads registry tokens with the same key (README, "Running several nodes").
    HEARTH__SECURITY__SECRET_KEY: 'a-secret-both-nodes-share-0123456789',
  };
  const config = loadConfig(null, { port: 0, dataDir }, env);
  config.server.http_addr = '127.0.0.1';
  return startServer(config);
}

withPostgres('container uploads across nodes', () => {
  it('a chunked blob upload whose chunks alternate between two nodes completes with the right digest', async () => {
    const url = await freshDatabase(pg, `blobs_${process.pid}`);
    const dirs = [0, 1].map(() => fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-blobnode-')));
    const a = await startNode(url, dirs[0]!);
    const b = await startNode(url, dirs[1]!);
    try {
      const admin = a.initialAdmin!;
      const nodes = [a, b];
      const call = (i: number, p: string, init: RequestInit = {}) =>
        fetch(new URL(p, nodes[i % 2]!.hearth.config.server.root_url), { ...init, headers: { Authorization: basicHeader(admin.username, admin.password), ...init.headers } });
      const image = `v2/${admin.username}/split`;
      const start = await call(0, `${image}/blobs/uploads/`, { method: 'POST' });
      expect(start.status).toBe(202);
      const session = start.headers.get('location')!.slice(1);
      // 3 MiB waits as pending bytes, 3 more make the first part, 1 MiB waits, 6 MiB make the
      // second, and the final PUT's 10 bytes are the last part: five requests, alternating nodes.
      const chunks = [3 * MiB, 3 * MiB, MiB, 6 * MiB].map((n) => crypto.randomBytes(n));
      let at = 0;
      for (const [i, chunk] of chunks.entries()) {
        const res = await call(i, session, { method: 'PATCH', headers: { 'Content-Range': `${at}-${at + chunk.length - 1}` }, body: chunk });
        expect(res.status, await res.text()).toBe(202);
        at += chunk.length;
        expect(res.headers.get('range')).toBe(`0-${at - 1}`);
      }
      const status = await call(1, session);
      expect(status.status).toBe(204);
      expect(status.headers.get('range')).toBe(`0-${at - 1}`);
      const last = crypto.randomBytes(10);
      const whole = Buffer.concat([...chunks, last]);
      const digest = `sha256:${sha256(whole)}`;
      const done = await call(4, `${session}?digest=${digest}`, { method: 'PUT', body: last });
      expect(done.status, await done.text()).toBe(201);
      expect(done.headers.get('docker-content-digest')).toBe(digest);
      for (const i of [0, 1]) {
        const blob = await call(i, `${image}/blobs/${digest}`);
        expect(blob.status).toBe(200);
        const got = Buffer.from(await blob.arrayBuffer());
        expect(got.length).toBe(whole.length);
        expect(sha256(got)).toBe(sha256(whole));
      }
      // Nothing of the session is left: not its row, nor anything in the bucket under uploads/.
      expect(await a.hearth.db.selectFrom('package_blob_upload').selectAll().execute()).toEqual([]);
      const left: string[] = [];
      for await (const e of a.hearth.blobs.list('packages/uploads/')) left.push(e.key);
      expect(left).toEqual([]);
      for (const d of dirs) expect(fs.existsSync(path.join(d, 'packages', 'uploads'))).toBe(false);
    } finally {
      await a.close();
      await b.close();
      for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
    }
  }, 120_000);
});
