// The executable's code cache (build.mjs), taken by the executable itself: V8's cache of every
// function a start on an existing data directory compiles until its first answer, so that a
// start compiles nothing from source. See takeCodeCache in src/exe-bootstrap.ts.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

const freePort = () => new Promise((resolve, reject) => {
  const srv = net.createServer().once('error', reject).listen(0, '127.0.0.1', () => {
    const { port } = srv.address();
    srv.close(() => resolve(port));
  });
});

/** One `hearth web` on `dataDir` that writes its code cache to `out` once it answered, then exits. */
async function serveOnce(exe, dataDir, out, checkLibraries) {
  const port = await freePort();
  // The builder's own HEARTH__ settings stay out of it: the warm-up starts as a default one does.
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('HEARTH')));
  const child = spawn(exe, ['web', '--port', String(port), '--data', dataDir], {
    cwd: path.dirname(dataDir), stdio: ['ignore', 'ignore', 'pipe'],
    env: {
      ...env, HEARTH_CODE_CACHE_WARMUP: '1', HEARTH_CODE_CACHE_OUT: out, HEARTH_CODE_CACHE_URL: `http://127.0.0.1:${port}/api/v1/version`,
      HEARTH__SERVER__HTTP_ADDR: '127.0.0.1', HEARTH__SERVER__START_SSH_SERVER: 'false',
      // The usual start loads none of the libraries packed apart (scripts/build-lazy-libraries.mjs).
      ...(checkLibraries ? { HEARTH_CODE_CACHE_LIBRARY_CHECK: '1' } : {}),
    },
  });
  let stderr = '';
  child.stderr.on('data', (b) => { stderr += b; });
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const code = await new Promise((resolve) => child.once('exit', (c) => resolve(c)));
  clearTimeout(timer);
  if (code !== 0 || !fs.existsSync(out)) throw new Error(`the code cache warm-up start failed (exit ${code}):\n${stderr}`);
}

/**
 * Starts `exe` twice over one new data directory: the first start creates it (migrations, the
 * first admin: work a usual start never does), the second one's cache is the one kept.
 */
export async function takeCodeCache(exe, work) {
  const dataDir = path.join(work, 'warm-up', 'data');
  fs.mkdirSync(path.dirname(dataDir), { recursive: true });
  const out = path.join(work, 'hearth.code-cache');
  try {
    await serveOnce(exe, dataDir, out, false);
    await serveOnce(exe, dataDir, out, true);
    return fs.readFileSync(out);
  } finally {
    fs.rmSync(path.dirname(dataDir), { recursive: true, force: true });
  }
}
