import pkg from '../../package.json';

export const HEARTH_VERSION: string = pkg.version;
/** The Gitea API level served; clients gate features on /version, so it leads the string. */
export const GITEA_API_VERSION = '1.25.4';
export const serverVersion = (): string => `${GITEA_API_VERSION}+hearth-${HEARTH_VERSION}`;
