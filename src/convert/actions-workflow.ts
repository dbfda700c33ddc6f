import type { Config } from '../config/schema';
import type { WorkflowView } from '../services/actions/api-workflows';
import { repoUrls } from './repo';

// Gitea's ActionWorkflow (getActionWorkflowEntry).

const escapePath = (p: string) => p.split('/').map(encodeURIComponent).join('/');

export function toApiWorkflow(config: Config, repo: { owner: string; name: string }, w: WorkflowView) {
  const urls = repoUrls(config, repo.owner, repo.name);
  const folder = w.path.slice(0, w.path.length - w.id.length - 1);
  return {
    id: w.id,
    name: w.name,
    path: w.path,
    state: w.disabled ? 'disabled_manually' : 'active',
    created_at: w.date,
    updated_at: w.date,
    // Gitea leaves it at Go's zero time: a listed workflow is not deleted.
    deleted_at: '0001-01-01T00:00:00Z',
    url: `${urls.url}/actions/workflows/${escapePath(w.id)}`,
    html_url: `${urls.html_url}/src/branch/${escapePath(w.branch)}/${escapePath(folder)}/${escapePath(w.id)}`,
    badge_url: `${urls.html_url}/actions/workflows/${escapePath(w.id)}/badge.svg?branch=${encodeURIComponent(w.branch)}`,
  };
}
