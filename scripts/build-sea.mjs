// The single executable from its files (build.mjs): packed into one SEA asset, made into Node's
// SEA blob with the bootstrap as main script, injected into a copy of the runtime's node.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * Every file the executable carries, packed into one SEA asset (src/lib/sea-payload.ts reads it):
 * [u32 index length][index JSON: name -> [offset, length]][files], in the order given.
 */
function pack(entries) {
  // Offsets depend on the index's own length: grow it until it is stable.
  let indexBytes = Buffer.alloc(0);
  for (;;) {
    let offset = 4 + indexBytes.length;
    const index = {};
    for (const [name, bytes] of Object.entries(entries)) { index[name] = [offset, bytes.length]; offset += bytes.length; }
    const next = Buffer.from(JSON.stringify(index));
    const stable = next.length === indexBytes.length;
    indexBytes = next;
    if (stable) break;
  }
  const head = Buffer.alloc(4);
  head.writeUInt32LE(indexBytes.length, 0);
  return Buffer.concat([head, indexBytes, ...Object.values(entries)]);
}

/** Writes the executable `out`: `files` packed, `bootstrap` as the SEA main script, on `runtimeNode`. */
export async function makeExecutable({ runtimeNode, bootstrap, files, work, out }) {
  const payloadFile = path.join(work, 'payload.bin');
  const payload = pack(files);
  fs.writeFileSync(payloadFile, payload);
  const blob = path.join(work, 'sea-prep.blob');
  const seaConfigFile = path.join(work, 'sea-config.json');
  fs.writeFileSync(seaConfigFile, JSON.stringify({
    main: bootstrap, output: blob, disableExperimentalSEAWarning: true, assets: { 'payload.bin': payloadFile },
  }, null, 2));
  // The blob (and its code cache) must come from the very Node it is injected into.
  execFileSync(runtimeNode, ['--experimental-sea-config', seaConfigFile], { stdio: ['ignore', 'ignore', 'inherit'] });
  fs.copyFileSync(runtimeNode, out);
  fs.chmodSync(out, 0o755);
  // postject prints LIEF's warnings about the binary's note sections: not ours to fix.
  await require('postject').inject(out, 'NODE_SEA_BLOB', fs.readFileSync(blob), {
    sentinelFuse: 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2',
  });
  // Where the payload lies in the file, as a trailer after the last segment (never mapped): the
  // executable copies files out of it with read() instead of through the mapped pages.
  const payloadAt = fs.readFileSync(out).lastIndexOf(payload);
  if (payloadAt < 0) throw new Error('payload not found in the executable');
  const trailer = Buffer.alloc(24);
  trailer.write('HEARTH-PAYLOAD\0\0', 0, 'latin1');
  trailer.writeBigUInt64LE(BigInt(payloadAt), 16);
  fs.appendFileSync(out, trailer);
}
