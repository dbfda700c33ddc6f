import type { Registry } from 'prom-client';
import { promClient } from '../../lib/lazy-require';

// The process-wide instruments: the git transport, the job queue and webhook deliveries count
// here once an app serves /metrics. Gauges of the database are per app (statistics.ts): tests
// run several servers in one process.

function makeInstruments() {
  const { Counter, Histogram, Registry } = promClient();
  const registry = new Registry();
  return {
    registry,
    requestDuration: new Histogram({
      name: 'hearth_http_request_duration_seconds',
      help: 'Duration of HTTP requests by method, route pattern and status',
      labelNames: ['method', 'route', 'status'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [registry],
    }),
    gitRequests: new Counter({
      name: 'hearth_git_requests_total',
      help: 'Git smart HTTP service requests (clones and fetches: upload-pack; pushes: receive-pack)',
      labelNames: ['service'] as const,
      registers: [registry],
    }),
    gitBytes: new Counter({
      name: 'hearth_git_bytes_total',
      help: 'Bytes of git smart HTTP service requests, received from (in) and sent to (out) clients',
      labelNames: ['service', 'direction'] as const,
      registers: [registry],
    }),
    sshConnections: new Counter({
      name: 'hearth_ssh_connections_total',
      help: 'Connections accepted by the built-in SSH server',
      registers: [registry],
    }),
    sshSessions: new Counter({
      name: 'hearth_ssh_sessions_total',
      help: 'Commands run over SSH by kind (upload-pack, receive-pack, upload-archive, lfs-authenticate, greeting, refused)',
      labelNames: ['command'] as const,
      registers: [registry],
    }),
    sshBytes: new Counter({
      name: 'hearth_ssh_bytes_total',
      help: 'Bytes of git over SSH, received from (in) and sent to (out) clients',
      labelNames: ['direction'] as const,
      registers: [registry],
    }),
    sshAuthFailures: new Counter({
      name: 'hearth_ssh_auth_failures_total',
      help: 'Failed SSH key sign-in attempts',
      registers: [registry],
    }),
    jobOutcomes: new Counter({
      name: 'hearth_jobs_total',
      help: 'Background jobs run, by kind and outcome (success, retry, failed)',
      labelNames: ['kind', 'outcome'] as const,
      registers: [registry],
    }),
    webhookDeliveries: new Counter({
      name: 'hearth_webhook_deliveries_total',
      help: 'Webhook delivery attempts by outcome (success: a 2xx answer; failure: anything else)',
      labelNames: ['outcome'] as const,
      registers: [registry],
    }),
  };
}

let instruments: ReturnType<typeof makeInstruments> | null = null;

/**
 * The shared registry, made (and prom-client loaded) when an app serves /metrics: before that
 * nothing counts, and a server without [metrics] never loads prom-client.
 */
export function sharedRegistry(): Registry {
  return (instruments ??= makeInstruments()).registry;
}

export function observeRequest(method: string, route: string, status: number, seconds: number): void {
  instruments?.requestDuration.observe({ method, route, status: String(status) }, seconds);
}

export function countGitRequest(service: string): void {
  instruments?.gitRequests.inc({ service });
}

export function countGitBytes(service: string, direction: 'in' | 'out', bytes: number): void {
  instruments?.gitBytes.inc({ service, direction }, bytes);
}

export function countSshConnection(): void {
  instruments?.sshConnections.inc();
}

export function countSshSession(command: string): void {
  instruments?.sshSessions.inc({ command });
}

export function countSshBytes(direction: 'in' | 'out', bytes: number): void {
  instruments?.sshBytes.inc({ direction }, bytes);
}

export function countSshAuthFailure(): void {
  instruments?.sshAuthFailures.inc();
}

export function countJob(kind: string, outcome: 'success' | 'retry' | 'failed'): void {
  instruments?.jobOutcomes.inc({ kind, outcome });
}

export function countWebhookDelivery(succeeded: boolean): void {
  instruments?.webhookDeliveries.inc({ outcome: succeeded ? 'success' : 'failure' });
}

let processMetrics = false;
/** CPU, memory, event loop, handles: once per process, and only when /metrics is served. */
export function enableProcessMetrics(): void {
  if (processMetrics) return;
  processMetrics = true;
  promClient().collectDefaultMetrics({ register: sharedRegistry() });
}
