// WebP decoding with libwebp built to WebAssembly (the @cwasm/webp package's module). Its own
// loader reads the .wasm beside its script, which the bundled executable does not have: the
// executable packs the module (build.mjs), and outside it the package's file is read.

import fs from 'node:fs';
import path from 'node:path';
import { payloadFile } from '../sea-payload';

type WebpExports = {
  memory: { buffer: ArrayBuffer };
  malloc(n: number): number;
  free(p: number): void;
  WebPDecodeRGBA(data: number, size: number, width: number, height: number): number;
};

// The project's TypeScript libraries leave WebAssembly out: the little used here, typed by hand.
type Wasm = { Module: new (code: Uint8Array) => object; Instance: new (m: object, imports: object) => { exports: unknown } };
const wasm = (globalThis as unknown as { WebAssembly: Wasm }).WebAssembly;

let instance: WebpExports | undefined;
let provided: Uint8Array | undefined;

/** libwebp's module bytes: packed in the executable, else the package's file. */
export function webpCode(): Buffer {
  // A name in a variable: the bundler leaves this require.resolve alone (the executable never reaches it).
  const pkg = '@cwasm/webp/package.json';
  return payloadFile('webp.wasm') ?? fs.readFileSync(path.join(path.dirname(require.resolve(pkg)), 'webp.wasm'));
}

/** A worker thread gets the module's bytes from its parent (lib/image/avatar-worker). */
export function provideWebpCode(code: Uint8Array): void {
  provided = code;
}

function load(): WebpExports {
  if (instance) return instance;
  const code = provided ?? webpCode();
  // libwebp never does I/O: the WASI imports it links against are never called.
  const unused = () => { throw new Error('WASI call not available'); };
  const module = new wasm.Module(code);
  const wasi = { fd_close: unused, fd_seek: unused, fd_write: unused, proc_exit: unused };
  instance = new wasm.Instance(module, { wasi_snapshot_preview1: wasi }).exports as unknown as WebpExports;
  return instance;
}

/** RGBA pixels of a still WebP image (the first frame's decoder refuses animations). */
export function decodeWebp(data: Buffer): { width: number; height: number; data: Buffer } {
  const w = load();
  const input = w.malloc(data.length);
  new Uint8Array(w.memory.buffer, input, data.length).set(data);
  const sizes = w.malloc(8);
  const output = w.WebPDecodeRGBA(input, data.length, sizes, sizes + 4);
  w.free(input);
  const [width, height] = new Uint32Array(w.memory.buffer, sizes, 2);
  w.free(sizes);
  if (output === 0) throw new Error('invalid WebP image');
  const pixels = Buffer.from(new Uint8Array(w.memory.buffer, output, width! * height! * 4));
  w.free(output);
  return { width: width!, height: height!, data: pixels };
}
