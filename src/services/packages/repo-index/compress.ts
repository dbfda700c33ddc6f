import { spawn } from 'node:child_process';
import zlib from 'node:zlib';

// Compressed copies of built index files. gzip is Node's; xz has no well-kept pure-JavaScript
// encoder, so the system's `xz` makes it when installed (the build runs in a job, off the
// request path) and the index simply goes without its .xz copy otherwise.

export const gzip = (data: Buffer) => zlib.gzipSync(data, { level: 9 });

let xzMissing = false;

/** The xz-compressed bytes, or null when no `xz` program is available. */
export function xz(data: Buffer): Promise<Buffer | null> {
  if (xzMissing) return Promise.resolve(null);
  return new Promise((resolve) => {
    const child = spawn('xz', ['-c', '-6', '-T1'], { stdio: ['pipe', 'pipe', 'ignore'] });
    const out: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.on('error', () => { xzMissing = true; resolve(null); });
    child.on('close', (code) => resolve(code === 0 ? Buffer.concat(out) : null));
    child.stdin.on('error', () => { /* the close handler answers */ });
    child.stdin.end(data);
  });
}
