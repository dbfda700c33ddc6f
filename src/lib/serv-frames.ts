import { Writable } from 'node:stream';

// `hearth serv` relays a command's output from the server in one HTTP response: frames of one
// byte (1 stdout, 2 stderr, 3 exit code), a 4-byte length, and the bytes.

export const FRAME = { stdout: 1, stderr: 2, exit: 3 } as const;

export function frame(kind: number, data: Buffer | string): Buffer {
  const body = typeof data === 'string' ? Buffer.from(data) : data;
  const head = Buffer.alloc(5);
  head[0] = kind;
  head.writeUInt32BE(body.length, 1);
  return Buffer.concat([head, body]);
}

/** A writable that sends what is written to it as frames of one kind, with the output's backpressure. */
export function framedWriter(out: NodeJS.WritableStream, kind: number): Writable {
  return new Writable({
    write(chunk: Buffer, _enc, done) {
      if (out.write(frame(kind, chunk))) done();
      else out.once('drain', () => done());
    },
  });
}

/** Reads frames and hands each to `on`; its callback is called once the frame's bytes are taken. */
export function frameReader(on: (kind: number, data: Buffer, done: () => void) => void): Writable {
  let pending: Buffer = Buffer.alloc(0);
  return new Writable({
    write(chunk: Buffer, _enc, done) {
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      const next = (): void => {
        if (pending.length < 5) return done();
        const len = pending.readUInt32BE(1);
        if (pending.length < 5 + len) return done();
        const kind = pending[0]!;
        const data = pending.subarray(5, 5 + len);
        pending = pending.subarray(5 + len);
        on(kind, data, next);
      };
      next();
    },
  });
}
