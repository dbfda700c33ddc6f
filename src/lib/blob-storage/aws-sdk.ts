// The AWS SDK's parts the S3 store uses, gathered in one module so that the executable packs them
// as one lazily compiled bundle (scripts/build-lazy-libraries.mjs, LAZY_SOURCES): the ~600 KB of
// their source (@smithy and @aws-sdk) stayed in the application's bundle, resident from every
// start on, though only a start with [storage] type = "s3" runs it. One bundle, not one per
// package: the client, the multipart upload and the presigner share one copy of @smithy.
export {
  AbortMultipartUploadCommand, CompleteMultipartUploadCommand, CopyObjectCommand, CreateMultipartUploadCommand, DeleteObjectCommand,
  GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client, UploadPartCommand, UploadPartCopyCommand,
} from '@aws-sdk/client-s3';
export { Upload } from '@aws-sdk/lib-storage';
export { getSignedUrl } from '@aws-sdk/s3-request-presigner';
