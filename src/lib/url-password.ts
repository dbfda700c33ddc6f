// A database URL carries its password (postgres://user:password@host/db): anything that shows or
// logs a configured URL shows it through this, so the password never leaves the config.

const CREDENTIALS = /^([a-z][a-z0-9+.-]*:\/\/[^:/?#@\s]*):[^/?#\s]*@/i; // up to the last @: a password may hold one

/** The URL with its password, if any, replaced by `******`; other text unchanged. */
export const maskUrlPassword = (value: string): string => value.replace(CREDENTIALS, '$1:******@');
