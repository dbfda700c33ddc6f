// The named import lets the bundler keep only this field of package.json (its scripts and
// dependencies stayed in both bundles' source, and were built as an object at every start).
import { version } from '../../package.json';

export const HEARTH_VERSION: string = version;
/** The Gitea API level served; clients gate features on /version, so it leads the string. */
export const GITEA_API_VERSION = '1.25.4';
export const serverVersion = (): string => `${GITEA_API_VERSION}+hearth-${HEARTH_VERSION}`;

/** The line `hearth --version` prints. */
export const versionLine = (): string => `hearth ${HEARTH_VERSION} (Gitea API ${serverVersion()})`;

/** True for `hearth --version` / `hearth -v` alone: answered before anything else loads. */
export const asksVersion = (args: readonly string[]): boolean =>
  args.length === 1 && (args[0] === '--version' || args[0] === '-v');
