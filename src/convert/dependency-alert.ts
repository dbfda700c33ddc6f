import type { User } from '../db/schema';
import { isoTime } from '../lib/time';
import type { AlertView } from '../services/security/alerts';

const timeOrNull = (unix: number) => (unix > 0 ? isoTime(unix) : null);

/** hearth's DependencyAlert, shaped after GitHub's Dependabot alert. */
export const toApiDependencyAlert = ({ alert, advisory }: AlertView, dismissedBy: User | undefined) => ({
  number: alert.index,
  state: alert.state,
  dependency: { package: { ecosystem: alert.ecosystem, name: alert.package }, version: alert.version, manifest_path: alert.manifest_path },
  security_advisory: advisory
    ? {
      osv_id: advisory.osv_id, summary: advisory.summary, severity: advisory.severity,
      published_at: timeOrNull(advisory.published_unix), updated_at: timeOrNull(advisory.modified_unix),
      affected: JSON.parse(advisory.affected) as unknown,
    }
    : null,
  created_at: isoTime(alert.created_unix),
  updated_at: isoTime(alert.updated_unix),
  dismissed_reason: alert.state === 'dismissed' ? alert.dismiss_reason : null,
  dismissed_by: alert.state === 'dismissed' && dismissedBy ? { id: dismissedBy.id, login: dismissedBy.name } : null,
  fixed_at: timeOrNull(alert.fixed_unix),
});
