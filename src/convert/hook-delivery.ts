import type { HookTask } from '../db/schema';

// A webhook delivery as hearth's API shows it (Gitea shows deliveries in its web UI only).

const parsed = (text: string): Record<string, unknown> => {
  try {
    return text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    return {};
  }
};

export function toApiDelivery(t: HookTask) {
  return {
    id: t.id, uuid: t.uuid, event: t.event, event_type: t.event_type,
    delivered_at: t.delivered_unix ? new Date(t.delivered_unix).toISOString().replace(/\.\d{3}Z$/, 'Z') : null,
    status_code: t.status_code, duration_ms: t.duration_ms, attempts: t.attempts,
    success: t.is_succeed === 1, redelivery: t.is_redelivery === 1,
  };
}

/** With the request as sent (Authorization masked) and the response as received, bodies up to 1 MiB. */
export function toApiDeliveryDetail(t: HookTask) {
  const request = parsed(t.request_content);
  const response = parsed(t.response_content);
  return {
    ...toApiDelivery(t),
    request: { url: request.url ?? '', http_method: request.http_method ?? '', headers: request.headers ?? {}, body: request.body ?? t.payload_content },
    response: t.is_delivered ? { status: response.status ?? 0, headers: response.headers ?? {}, body: response.body ?? '' } : null,
  };
}
