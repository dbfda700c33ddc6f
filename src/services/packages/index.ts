/**
 * The package registry core, for the authors of the registries (generic, npm, pypi, maven,
 * container). Read this first. Gitea's reference: services/packages/packages.go, models/packages.
 *
 * Data: package (owner_id, type, name; unique per owner+type+lower_name) -> package_version
 * (unique lower_version per package; metadata_json; is_internal hides it from lists) ->
 * package_file (unique lower_name + composite_key per version; is_lead) -> package_blob (one per
 * sha256; bytes at <data_dir>/packages/blobs/aa/bb/<sha256>). package_property rows hang off a
 * version (PROPERTY_REF.version = 0), a file (1) or a package (2); a name may repeat.
 *
 * Routes: src/routes/packages/index.ts mounts /api/packages/:owner/:type and hands each type's
 * router (REGISTRIES there: add yours with one line, a loader of its module) a request whose `req.ctx.contextUser` is the
 * owner and `res.locals.packageAccess` the caller's mode. Guard writes with
 * `reqPackageAccess('write')` from src/routes/packages/access.ts (reads are guarded already);
 * serve files with `sendPackageBlob` from src/routes/packages/send-blob.ts.
 *
 * A registry that must read the package to learn its name (a zip, a tarball) streams it in with
 * storeUpload (src/routes/packages/upload-stream.ts: the raw body or a form's file), parses the
 * stored file (archive/zip.ts, archive/tar.ts) inside withStoredBlob (stored-upload.ts: a refusal
 * drops the blob), then creates the rows. installCommand (install-command.ts) tells a client's
 * setup and install command per type.
 *
 * Storing an upload (never buffer it):
 *   const blob = await storeBlob(dataDir, req, { maxSize: uploadSizeLimit(config, doer, type), tooLarge: () => new PackageQuotaError(QUOTA.typeSize) });
 *   await createPackageAndAddFile(db, config, { owner, creator, type, name, version, file: {name, isLead}, blob, ... });
 * storeBlob streams into a temp file while hashing (md5/sha1/sha256/sha512) and renames it into
 * place (dedupe: same bytes, one file); the blob row comes with the file row. When the
 * transaction fails, the blob file is removed unless a row references it; blob rows left
 * without files (deleted versions) are removed by the cron task cleanup_packages.
 *
 * Functions (all throw AppError subclasses: NotFoundError 404, ConflictError 409,
 * PackageQuotaError 403 as Gitea's registries answer quota errors, PayloadTooLargeError 413):
 * - createPackageAndAddFile(db, config, CreateInput) -> {pkg, version, file, versionCreated}:
 *   creates package/version when missing (409 for an existing version only with
 *   failIfVersionExists), adds the file (409 if it exists unless overwrite), checks
 *   [packages] limits, emits the `package` webhook (created) for a new version.
 * - addFileToExistingVersion(db, config, {...}) -> {pkg, version, file}: 404 without the version.
 * - getPackage / getVersion / getVersionsOfPackage / getFilesOfVersion / getFileOfVersion:
 *   lookups by owner, type, name (case-insensitive), 404 when missing.
 * - deleteVersion(db, config, doer, version): files, properties, the package with its last
 *   version; `package` webhook (deleted). deletePackageFile(db, file): one file.
 * - getProperties(db, refType, refId, name?) / setProperty(db, refType, refId, name, value).
 * - incrementDownloadCount(db, version); searchPackages(db, VersionSearch) -> {rows, total}.
 * - Chunked uploads: createUploadSession / appendUploadChunk (416 on a wrong offset) /
 *   finishUploadSession (400 when the expected sha256 differs) / deleteUploadSession.
 * - Access: resolvePackageOwner(db, name), packageAccessMode(db, owner, doer).
 */
export * from './access';
export * from './blob-store';
export * from './limits';
export * from './packages';
export * from './queries';
export * from './upload-session';
export { PROPERTY_REF, type PropertyRef } from '../../models/package';
export type { VersionSearch } from '../../models/package-search';
export * from './link';
export * from './views';
