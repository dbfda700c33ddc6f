import fs from 'node:fs';
import path from 'node:path';
import { utils } from 'ssh2';

// The server's host keys, ed25519 and RSA, generated into <data_dir>/ssh on the first start and
// kept: clients pin them, and a second node over the same data directory serves the same ones.

const KEYS = [
  { file: 'hearth.ed25519', make: () => utils.generateKeyPairSync('ed25519') },
  { file: 'hearth.rsa', make: () => utils.generateKeyPairSync('rsa', { bits: 3072 }) },
] as const;

/** The private keys (OpenSSH format), each read or, when missing, generated and written. */
export function loadHostKeys(dataDir: string): Buffer[] {
  const dir = path.join(dataDir, 'ssh');
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  return KEYS.map(({ file, make }) => {
    const at = path.join(dir, file);
    if (!fs.existsSync(at)) {
      const pair = make();
      const tmp = `${at}.${process.pid}.tmp`;
      fs.writeFileSync(tmp, pair.private, { mode: 0o600 });
      try {
        // link() fails if the name exists: a node starting at the same moment keeps the key the
        // other one wrote, and no one reads a half-written file.
        fs.linkSync(tmp, at);
        fs.writeFileSync(`${at}.pub`, `${pair.public}\n`, { mode: 0o644 });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      } finally {
        fs.rmSync(tmp, { force: true });
      }
    }
    return fs.readFileSync(at);
  });
}
