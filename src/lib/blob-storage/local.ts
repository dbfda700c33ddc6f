import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { moveFile } from '../move-file';
import { LocalChunks } from './local-chunks';
import { fsyncFile, spool } from './spool';
import { checkKey, notFound, type BlobEntry, type BlobHashes, type BlobStat, type BlobStorage, type ByteRange, type KeyOf, type PutOptions, type PutResult } from './storage';

// Objects as files under a root directory (the data directory): the key is the file's relative
// path, so a data directory from before this interface is read as it is. Uploads spool into a
// temp directory on the same file system and are renamed into place (readers never see half a file).

export class LocalBlobStorage implements BlobStorage {
  readonly kind = 'local' as const;
  readonly chunks = new LocalChunks((key) => this.pathOf(key));
  constructor(readonly root: string, readonly tempDir: string) {}

  /** The file of a key (local disk only: code that must have a path asks withFile instead). */
  pathOf(key: string): string {
    return path.join(this.root, ...checkKey(key).split('/'));
  }

  async put(keyOf: KeyOf, input: Readable, opts: PutOptions = {}): Promise<PutResult> {
    const s = await spool(this.tempDir, input, opts);
    return this.adopt(keyOf, s.file, s);
  }

  async adopt(keyOf: KeyOf, file: string, hashed: { size: number; hashes: BlobHashes }): Promise<PutResult> {
    const { size, hashes } = hashed;
    try {
      const key = typeof keyOf === 'string' ? keyOf : keyOf(hashes);
      const dest = this.pathOf(key);
      if (typeof keyOf !== 'string' && fs.existsSync(dest)) {
        fs.rmSync(file, { force: true });
        // Fresh again: clean-ups leave objects whose file changed within their grace period alone.
        const now = new Date();
        fs.utimesSync(dest, now, now);
        return { key, size, hashes, created: false };
      }
      fsyncFile(file);
      fs.mkdirSync(path.dirname(dest), { recursive: true });
      moveFile(file, dest);
      return { key, size, hashes, created: true };
    } catch (err) {
      fs.rmSync(file, { force: true });
      throw err;
    }
  }

  async adoptObject(keyOf: KeyOf, from: string, hashed: { size: number; hashes: BlobHashes }): Promise<PutResult> {
    return this.adopt(keyOf, this.pathOf(from), hashed);
  }

  async putFile(key: string, file: string): Promise<void> {
    const dest = this.pathOf(key);
    try {
      fsyncFile(file);
      fs.mkdirSync(path.dirname(dest), { recursive: true });
      moveFile(file, dest);
    } catch (err) {
      fs.rmSync(file, { force: true });
      throw err;
    }
  }

  async open(key: string, range?: ByteRange): Promise<Readable> {
    const file = this.pathOf(key);
    // Opened before the stream is handed out, so a missing file rejects here rather than mid-pipe.
    const fd = await fs.promises.open(file, 'r').catch((err: NodeJS.ErrnoException) => {
      throw err.code === 'ENOENT' ? notFound(key) : err;
    });
    return fd.createReadStream(range ? { start: range.start, end: range.end } : {});
  }

  async stat(key: string): Promise<BlobStat | null> {
    const file = this.pathOf(key);
    try {
      const st = await fs.promises.stat(file);
      return st.isFile() ? { size: st.size, modifiedMs: st.mtimeMs } : null;
    } catch {
      return null;
    }
  }

  async remove(key: string): Promise<void> {
    await fs.promises.rm(this.pathOf(key), { force: true });
  }

  async *list(prefix: string): AsyncIterable<BlobEntry> {
    // The deepest directory the prefix names whole; the rest of the prefix filters its entries.
    const cut = prefix.lastIndexOf('/');
    const base = cut < 0 ? '' : prefix.slice(0, cut);
    yield* this.walk(base, prefix);
  }

  private async *walk(dirKey: string, prefix: string): AsyncIterable<BlobEntry> {
    const dir = dirKey ? this.pathOf(dirKey) : this.root;
    let names: fs.Dirent[];
    try { names = await fs.promises.readdir(dir, { withFileTypes: true }); } catch { return; }
    for (const d of names.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const key = dirKey ? `${dirKey}/${d.name}` : d.name;
      if (d.isDirectory()) {
        if (prefix.startsWith(`${key}/`) || key.startsWith(prefix)) yield* this.walk(key, prefix);
      } else if (d.isFile() && key.startsWith(prefix)) {
        const st = await this.stat(key);
        if (st) yield { key, ...st };
      }
    }
  }

  async signedUrl(): Promise<string | null> {
    return null;
  }

  async withFile<T>(key: string, fn: (file: string) => Promise<T> | T): Promise<T> {
    const file = this.pathOf(key);
    if (!fs.existsSync(file)) throw notFound(key);
    return fn(file);
  }

  async close(): Promise<void> { /* nothing held */ }
}
