import { AUDIT_OPERATIONS } from '../../../services/audit/operations';
import { paging, q } from '../../query';
import type { QueryParam } from '../../table';

// The audit log endpoints' filters, apart from their handlers: the route table names them at
// start, the handlers (audit-logs.ts) load with the first request.

/** The swagger description of both endpoints: the filters and every operation type. */
export const AUDIT_DESCRIPTION = 'Site admins only (403 otherwise). Filters: `q` (part of the operator\'s name), '
  + '`operator_id`, `operation_type`, `start_unix`, `end_unix` (unix seconds, inclusive). Newest first. '
  + `Operation types: ${AUDIT_OPERATIONS.join(', ')}.`;

/** The filters both endpoints read, as the swagger lists them. */
export const FILTER = {
  q: q.str('q'), operatorId: q.int('operator_id'), operationType: q.str('operation_type', { enum: AUDIT_OPERATIONS }),
  startUnix: q.int('start_unix'), endUnix: q.int('end_unix'),
};
export const AUDIT_FILTERS: readonly QueryParam[] = Object.values(FILTER);
export const AUDIT_QUERY: readonly QueryParam[] = [...AUDIT_FILTERS, ...paging];
