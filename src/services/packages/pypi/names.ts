// PyPI names, versions and file names (Gitea's routers/api/packages/pypi/pypi.go).

/** PEP 503 normalization of the separators (runs of `-`, `_`, `.` become one `-`); case is kept, lookups ignore it. */
export const normalizePypiName = (name: string) => name.replace(/[-_.]+/g, '-');

// https://peps.python.org/pep-0508/#names (after normalization, as Gitea checks it)
const NAME = /^(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9._-]*[a-zA-Z0-9])$/;

// https://peps.python.org/pep-0440/#appendix-b-parsing-version-strings-with-regular-expressions
const VERSION = new RegExp('^v?'
  + '(?:[0-9]+!)?' // epoch
  + '[0-9]+(?:\\.[0-9]+)*' // release segment
  + '(?:[-_.]?(?:a|b|c|rc|alpha|beta|pre|preview)[-_.]?[0-9]*)?' // pre-release
  + '(?:-[0-9]+|[-_.]?(?:post|rev|r)[-_.]?[0-9]*)?' // post release
  + '(?:[-_.]?dev[-_.]?[0-9]*)?' // dev release
  + '(?:\\+[a-z0-9]+(?:[-_.][a-z0-9]+)*)?' // local version
  + '$');

export const validPypiName = (name: string) => NAME.test(name);
export const validPypiVersion = (version: string) => VERSION.test(version);

/**
 * A distribution file name as the store keeps it: one path segment of printable characters
 * (it becomes part of /files/{id}/{version}/{filename}), no surrounding spaces.
 */
export function validPypiFilename(name: string): boolean {
  if (!name || name.length > 255 || name === '.' || name === '..' || name.trim() !== name) return false;
  return !/[/\\\x00-\x1f\x7f]/.test(name);
}
