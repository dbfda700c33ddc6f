import { AppError } from '../../../lib/errors';

// The OCI distribution error codes with Gitea's statuses (routers/api/packages/container/errors.go),
// answered as {errors:[{code,message,detail}]}.

export class OciError extends AppError {
  constructor(status: number, readonly code: string, message: string, readonly detail?: unknown) { super(status, message); }
}

const named = (status: number, code: string, fallback: string) => (message = fallback, detail?: unknown) => new OciError(status, code, message, detail);

export const OCI = {
  blobUnknown: named(404, 'BLOB_UNKNOWN', 'blob unknown to registry'),
  blobUploadInvalid: named(400, 'BLOB_UPLOAD_INVALID', 'blob upload invalid'),
  blobUploadUnknown: named(404, 'BLOB_UPLOAD_UNKNOWN', 'blob upload unknown to registry'),
  digestInvalid: named(400, 'DIGEST_INVALID', 'provided digest did not match uploaded content'),
  manifestBlobUnknown: named(404, 'MANIFEST_BLOB_UNKNOWN', 'manifest references a manifest or blob unknown to registry'),
  manifestInvalid: named(400, 'MANIFEST_INVALID', 'manifest invalid'),
  manifestUnknown: named(404, 'MANIFEST_UNKNOWN', 'manifest unknown'),
  nameInvalid: named(400, 'NAME_INVALID', 'invalid repository name'),
  nameUnknown: named(404, 'NAME_UNKNOWN', 'repository name not known to registry'),
  sizeInvalid: named(400, 'SIZE_INVALID', 'provided length did not match content length'),
  unauthorized: named(401, 'UNAUTHORIZED', 'authentication required'),
  denied: named(403, 'DENIED', 'requested access to the resource is denied'),
  unsupported: named(501, 'UNSUPPORTED', 'the operation is unsupported'),
};

/** The OCI code for a core error's status (the core throws plain AppErrors). */
export function ociCodeOf(err: AppError): string {
  if (err instanceof OciError) return err.code;
  switch (err.status) {
    case 400: return 'BLOB_UPLOAD_INVALID';
    case 401: return 'UNAUTHORIZED';
    case 403: return 'DENIED';
    case 404: return 'NAME_UNKNOWN';
    case 413: return 'SIZE_INVALID';
    case 416: return 'BLOB_UPLOAD_INVALID';
    default: return 'UNSUPPORTED';
  }
}
