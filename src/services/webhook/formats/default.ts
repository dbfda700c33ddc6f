// The gitea and gogs hook types: Gitea's own payload JSON, as services/webhook/deliver.go's
// newDefaultRequest sends it (JSON body, form field `payload`, or `payload` query parameter for GET).

import { goJson, queryEscape, setQueryParam } from './go-compat';
import type { HookRequest, HookTarget } from './types';

/** Null where Gitea refuses to build the request (a method other than POST or GET). */
export function defaultRequest(hook: HookTarget, payload: Record<string, unknown>): HookRequest | null {
  // The task's PayloadContent is the payload marshalled with two-space indent; it is also what is signed.
  const json = goJson(payload);
  const method = hook.httpMethod || 'POST';
  if (method === 'GET') {
    return {
      url: setQueryParam(hook.url, 'payload', json), method: 'GET', body: '', contentType: '',
      signedBody: json, defaultHeaders: true,
    };
  }
  if (method !== 'POST') return null;
  if (hook.contentType === 'form') {
    return {
      url: hook.url, method: 'POST', body: `payload=${queryEscape(json)}`,
      contentType: 'application/x-www-form-urlencoded', signedBody: json, defaultHeaders: true,
    };
  }
  return { url: hook.url, method: 'POST', body: json, contentType: 'application/json', signedBody: json, defaultHeaders: true };
}
