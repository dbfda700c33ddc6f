import * as z from 'zod';
import { bool, dateTime, int, str } from './fields';

// Definitions of what hearth answers beyond Gitea's API, marked `x-hearth-extension` in the
// swagger (every export of this file is).

/** One audit log record (GET /admin/audit-logs), flat as the seed gives it; `extra` is JSON text. */
export const AuditLog = z.object({
  id: int,
  operation_type: str,
  operation_time: dateTime,
  operator_id: int,
  operator_name: str,
  target_type: str,
  target_id: int,
  target_name: str,
  owner_id: int,
  owner_name: str,
  repo_id: int,
  repo_name: str,
  ip_address: str,
  message: str,
  extra: str,
});

/** One attempt at delivering a webhook event. */
export const HookDelivery = z.object({
  id: int,
  uuid: str,
  event: str,
  event_type: str,
  delivered_at: dateTime.nullable(),
  status_code: int,
  duration_ms: int,
  attempts: int,
  success: bool,
  redelivery: bool,
});

/** A delivery with the request as sent (Authorization masked) and the answer as received. */
export const HookDeliveryDetail = HookDelivery.extend({
  request: z.object({ url: z.unknown(), http_method: z.unknown(), headers: z.unknown(), body: z.unknown() }),
  response: z.object({ status: z.unknown(), headers: z.unknown(), body: z.unknown() }).nullable(),
});

/** A known vulnerability in one locked dependency, after GitHub's Dependabot alerts. */
export const DependencyAlert = z.object({
  number: int,
  /** open, dismissed or fixed. */
  state: str,
  dependency: z.object({
    package: z.object({ ecosystem: str, name: str }), version: str, manifest_path: str,
  }),
  security_advisory: z.object({
    osv_id: str, summary: str, severity: str, published_at: dateTime.nullable(), updated_at: dateTime.nullable(), affected: z.unknown(),
  }).nullable(),
  created_at: dateTime,
  updated_at: dateTime,
  dismissed_reason: str.nullable(),
  dismissed_by: z.object({ id: int, login: str }).nullable(),
  fixed_at: dateTime.nullable(),
});
