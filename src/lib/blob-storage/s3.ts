import fs from 'node:fs';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import crypto from 'node:crypto';
import path from 'node:path';
import {
  CompleteMultipartUploadCommand, CopyObjectCommand, CreateMultipartUploadCommand, DeleteObjectCommand, GetObjectCommand, getSignedUrl,
  HeadObjectCommand, ListObjectsV2Command, S3Client, Upload, UploadPartCopyCommand,
} from './aws-sdk';
import { S3Chunks } from './s3-chunks';
import { spool } from './spool';
import {
  checkKey, notFound, type BlobEntry, type BlobHashes, type BlobStat, type BlobStorage, type ByteRange, type KeyOf, type PutOptions,
  type PutResult, type SignedUrlOptions,
} from './storage';

// Objects in an S3-compatible bucket (AWS, MinIO, Garage, Ceph): what several nodes share.
// Reached only through a dynamic import when [storage] type = "s3", so the SDK stays off every
// other start. Uploads spool to a node-local temp file while hashing (the key of a
// content-addressed object is its hash), then go up in one PUT or, when large, as a multipart upload.

export type S3Settings = {
  endpoint: string; bucket: string; region: string; accessKeyId: string; secretAccessKey: string;
  pathStyle: boolean; prefix: string;
};

const isMissing = (err: unknown): boolean => {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NotFound' || e?.name === 'NoSuchKey' || e?.$metadata?.httpStatusCode === 404;
};

const COPY_LIMIT = 5 * 1024 ** 3;
const COPY_PART = 1024 ** 3;

export class S3BlobStorage implements BlobStorage {
  readonly kind = 's3' as const;
  readonly client: S3Client;
  readonly chunks: S3Chunks = new S3Chunks(this);
  private readonly prefix: string;

  constructor(readonly settings: S3Settings, readonly tempDir: string) {
    this.client = new S3Client({
      region: settings.region || 'us-east-1',
      ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
      forcePathStyle: settings.pathStyle,
      ...(settings.accessKeyId ? { credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey } } : {}),
      // Checksums only where S3 requires them: many compatible servers reject the SDK's default CRC headers.
      requestChecksumCalculation: 'WHEN_REQUIRED', responseChecksumValidation: 'WHEN_REQUIRED',
    });
    this.prefix = settings.prefix ? `${settings.prefix.replace(/^\/+|\/+$/g, '')}/` : '';
  }

  /** The object's name in the bucket. */
  objectKey(key: string): string { return this.prefix + checkKey(key); }
  private get bucket() { return this.settings.bucket; }

  async put(keyOf: KeyOf, input: Readable, opts: PutOptions = {}): Promise<PutResult> {
    const s = await spool(this.tempDir, input, opts);
    return this.adopt(keyOf, s.file, s);
  }

  async adopt(keyOf: KeyOf, file: string, hashed: { size: number; hashes: BlobHashes }): Promise<PutResult> {
    const { size, hashes } = hashed;
    try {
      const key = typeof keyOf === 'string' ? keyOf : keyOf(hashes);
      if (typeof keyOf !== 'string' && (await this.stat(key))) {
        await this.touch(key);
        return { key, size, hashes, created: false };
      }
      await this.upload(key, file, size);
      return { key, size, hashes, created: true };
    } finally {
      fs.rmSync(file, { force: true });
    }
  }

  async putFile(key: string, file: string): Promise<void> {
    try {
      await this.upload(key, file, fs.statSync(file).size);
    } finally {
      fs.rmSync(file, { force: true });
    }
  }

  /** One PUT below the part size, else a multipart upload of 8 MiB parts, two in flight. */
  private async upload(key: string, file: string, size: number): Promise<void> {
    await new Upload({
      client: this.client, params: { Bucket: this.bucket, Key: this.objectKey(key), Body: fs.createReadStream(file), ContentLength: size },
      queueSize: 2, partSize: 8 * 1024 * 1024, leavePartsOnError: false,
    }).done();
  }

  async adoptObject(keyOf: KeyOf, from: string, hashed: { size: number; hashes: BlobHashes }): Promise<PutResult> {
    const { size, hashes } = hashed;
    const key = typeof keyOf === 'string' ? keyOf : keyOf(hashes);
    let created = true;
    if (typeof keyOf !== 'string' && (await this.stat(key))) {
      await this.touch(key);
      created = false;
    } else {
      await this.copy(from, key, size);
    }
    await this.remove(from);
    return { key, size, hashes, created };
  }

  /** A server-side copy: one CopyObject up to 5 GiB (S3's limit), else a multipart copy of 1 GiB parts. */
  async copy(from: string, to: string, size?: number): Promise<void> {
    const source = this.copySource(from);
    const bytes = size ?? (await this.stat(from))?.size ?? 0;
    if (bytes <= COPY_LIMIT) {
      await this.client.send(new CopyObjectCommand({ Bucket: this.bucket, Key: this.objectKey(to), CopySource: source }));
      return;
    }
    const { UploadId } = await this.client.send(new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: this.objectKey(to) }));
    const parts: { PartNumber: number; ETag?: string }[] = [];
    for (let start = 0, n = 1; start < bytes; start += COPY_PART, n++) {
      const end = Math.min(bytes, start + COPY_PART) - 1;
      const out = await this.client.send(new UploadPartCopyCommand({
        Bucket: this.bucket, Key: this.objectKey(to), UploadId, PartNumber: n, CopySource: source, CopySourceRange: `bytes=${start}-${end}`,
      }));
      parts.push({ PartNumber: n, ETag: out.CopyPartResult?.ETag });
    }
    await this.client.send(new CompleteMultipartUploadCommand({ Bucket: this.bucket, Key: this.objectKey(to), UploadId, MultipartUpload: { Parts: parts } }));
  }

  private copySource(key: string): string {
    return `${this.bucket}/${encodeURIComponent(this.objectKey(key)).replace(/%2F/g, '/')}`;
  }

  /** Writes the object's bytes to a local file. */
  async download(key: string, file: string): Promise<void> {
    await pipeline(await this.open(key), fs.createWriteStream(file));
  }

  /** Marks an object fresh (its LastModified now): a copy onto itself with its metadata replaced. */
  private async touch(key: string): Promise<void> {
    await this.client.send(new CopyObjectCommand({
      Bucket: this.bucket, Key: this.objectKey(key), CopySource: this.copySource(key),
      MetadataDirective: 'REPLACE', Metadata: { touched: String(Date.now()) },
    }));
  }

  async open(key: string, range?: ByteRange): Promise<Readable> {
    try {
      const out = await this.client.send(new GetObjectCommand({
        Bucket: this.bucket, Key: this.objectKey(key), ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
      }));
      return out.Body as Readable;
    } catch (err) {
      throw isMissing(err) ? notFound(key) : err;
    }
  }

  async stat(key: string): Promise<BlobStat | null> {
    try {
      const out = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
      return { size: out.ContentLength ?? 0, modifiedMs: out.LastModified?.getTime() ?? 0 };
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async remove(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
  }

  async *list(prefix: string): AsyncIterable<BlobEntry> {
    let token: string | undefined;
    do {
      const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: this.prefix + prefix, ContinuationToken: token }));
      for (const o of page.Contents ?? []) {
        if (!o.Key) continue;
        yield { key: o.Key.slice(this.prefix.length), size: o.Size ?? 0, modifiedMs: o.LastModified?.getTime() ?? 0 };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  async signedUrl(key: string, opts: SignedUrlOptions): Promise<string | null> {
    const disposition = opts.filename
      ? `attachment; filename="${opts.filename.replace(/[^\x20-\x7e]|["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(opts.filename)}`
      : undefined;
    return getSignedUrl(this.client, new GetObjectCommand({
      Bucket: this.bucket, Key: this.objectKey(key), ResponseContentDisposition: disposition, ResponseContentType: opts.contentType,
    }), { expiresIn: opts.expiresSec });
  }

  async withFile<T>(key: string, fn: (file: string) => Promise<T> | T): Promise<T> {
    fs.mkdirSync(this.tempDir, { recursive: true });
    const file = path.join(this.tempDir, `${Date.now()}-${crypto.randomUUID()}.download`);
    try {
      await this.download(key, file);
      return await fn(file);
    } finally {
      fs.rmSync(file, { force: true });
    }
  }

  async close(): Promise<void> {
    this.client.destroy();
  }
}
