import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestServer } from './server';

// The real package clients (cargo, go, composer, gem, bundle) driven from the registry tests:
// found on PATH (cargo also under ~/.cargo/bin), run with a temp HOME and never throwing, so a
// test asserts on the exit code and the output.

const EXTRA_PATH = [path.join(os.homedir(), '.cargo', 'bin')];

/** The client's path, or null (the test is then skipped with the reason said aloud). */
export function findClient(name: string): string | null {
  for (const dir of [...(process.env.PATH ?? '').split(':'), ...EXTRA_PATH]) {
    const p = path.join(dir, name);
    if (dir && fs.existsSync(p)) return p;
  }
  return null;
}

/** Says aloud why a client test is skipped. */
export function requireClient(name: string, test: string): string | null {
  const p = findClient(name);
  if (!p) console.warn(`${test}: ${name} is missing, its client tests are skipped`);
  return p;
}

export type RunResult = { code: number; out: string };

/** Runs a client; resolves with its exit code and stdout+stderr. */
export function runClient(file: string, args: string[], o: { cwd?: string; env: Record<string, string>; timeout?: number; input?: string }): Promise<RunResult> {
  const env = { PATH: [...(process.env.PATH ?? '/usr/bin:/bin').split(':'), ...EXTRA_PATH].join(':'), ...o.env };
  return new Promise((resolve) => {
    const child = execFile(file, args, { cwd: o.cwd, env, timeout: o.timeout ?? 180_000, maxBuffer: 32 << 20 }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : -1) : 0;
      resolve({ code, out: `${stdout}${stderr}` });
    });
    if (o.input !== undefined) child.stdin?.end(o.input);
    else child.stdin?.end();
  });
}

/** Writes files (path -> text) under a directory. */
export function writeTree(dir: string, files: Record<string, string>): void {
  for (const [p, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, p)), { recursive: true });
    fs.writeFileSync(path.join(dir, p), text);
  }
}

/** A zip of the given files, made with python3's zipfile (every test machine has python3). */
export function makeZip(files: Record<string, string | Buffer>): Buffer {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-zip-'));
  try {
    const list = Object.entries(files).map(([name, data]) => {
      const f = path.join(dir, `f${Math.random().toString(36).slice(2)}`);
      fs.writeFileSync(f, data);
      return [name, f];
    });
    const script = 'import sys, json, zipfile\nz = zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED)\nfor n, f in json.loads(sys.argv[2]): z.write(f, n)\nz.close()';
    const out = path.join(dir, 'out.zip');
    execFileSync('python3', ['-c', script, out, JSON.stringify(list)]);
    return fs.readFileSync(out);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** A tar (gzip'd unless gzip is false) of the given files, made with python3's tarfile. */
export function makeTar(files: Record<string, string | Buffer>, gzip = true): Buffer {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-tar-'));
  try {
    const list = Object.entries(files).map(([name, data]) => {
      const f = path.join(dir, `f${Math.random().toString(36).slice(2)}`);
      fs.writeFileSync(f, data);
      return [name, f];
    });
    const script = 'import sys, json, tarfile\nt = tarfile.open(sys.argv[1], sys.argv[3])\nfor n, f in json.loads(sys.argv[2]): t.add(f, n)\nt.close()';
    const out = path.join(dir, 'out.tar');
    execFileSync('python3', ['-c', script, out, JSON.stringify(list), gzip ? 'w:gz' : 'w']);
    return fs.readFileSync(out);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The number of package blob files in the store (a refused upload must leave none behind). */
export function blobFileCount(s: TestServer): number {
  const dir = path.join(s.dataDir, 'packages', 'blobs');
  if (!fs.existsSync(dir)) return 0;
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;
}

/** Package rows of an owner's type (name@version), for asserting nothing half-written stays. */
export async function versionsOf(s: TestServer, ownerId: number, type: string): Promise<string[]> {
  const rows = await s.hearth.db.selectFrom('package as p').innerJoin('package_version as v', 'v.package_id', 'p.id')
    .select(['p.name', 'v.version']).where('p.owner_id', '=', ownerId).where('p.type', '=', type).orderBy('v.id').execute();
  return rows.map((r) => `${r.name}@${r.version}`);
}
