import type { ConnectRouter, HandlerContext } from '@connectrpc/connect';
import type { RequestHandler } from 'express';
import type { Hearth } from '../hearth';
import { Code, ConnectError, connectNodeAdapter, PingService, RunnerService } from '../lib/runner-protocol';
import { runnerMessage, taskMessage, taskStateMessage, taskReportOf } from '../convert/actions-proto';
import { AppError } from '../lib/errors';
import { authenticateRunner, declareRunner, registerRunner } from '../services/actions/runner-session';
import { fetchTask } from '../services/actions/task-fetch';
import { updateTaskLog, updateTaskState } from '../services/actions/task-report';

// The runner protocol under /api/actions (Gitea's routers/api/actions): connect-RPC services
// ping.v1.PingService and runner.v1.RunnerService, binary protobuf and JSON alike, as
// act_runner, forgejo-runner and `hearth runner` speak them. Every call but Register and Ping
// names its runner by the x-runner-uuid and x-runner-token headers.

/** Our domain errors as the connect codes Gitea answers with. */
function toConnect(err: unknown): ConnectError {
  if (err instanceof ConnectError) return err;
  if (err instanceof AppError) {
    const code = err.status === 401 ? Code.Unauthenticated : err.status === 403 ? Code.PermissionDenied
      : err.status === 404 ? Code.NotFound : err.status === 409 ? Code.AlreadyExists
        : err.status < 500 ? Code.InvalidArgument : Code.Internal;
    return new ConnectError(err.message, code);
  }
  return new ConnectError('internal error', Code.Internal);
}

async function guarded<T>(h: Hearth, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (!(err instanceof AppError) && !(err instanceof ConnectError)) h.log.error({ err }, 'actions runner protocol failed');
    throw toConnect(err);
  }
}

function routes(h: Hearth) {
  const db = h.db;
  const runnerOf = (ctx: HandlerContext, active = false) => authenticateRunner(
    db, ctx.requestHeader.get('x-runner-uuid') ?? '', ctx.requestHeader.get('x-runner-token') ?? '',
    { active, version: ctx.requestHeader.get('x-runner-version') ?? undefined },
  );
  return (router: ConnectRouter) => {
    router.service(PingService, {
      ping: async (req) => ({ data: `Hello, ${req.data}!` }),
    });
    router.service(RunnerService, {
      register: (req) => guarded(h, async () => {
        // Older runners send agent and custom labels instead of labels.
        const labels = req.labels.length ? req.labels : [...req.agentLabels, ...req.customLabels];
        const { runner, token } = await registerRunner(db, { name: req.name, token: req.token, version: req.version, labels, ephemeral: req.ephemeral });
        return { runner: runnerMessage(runner, token) };
      }),
      declare: (req, ctx) => guarded(h, async () => {
        const runner = await declareRunner(db, await runnerOf(ctx), req.version, req.labels);
        return { runner: runnerMessage(runner) };
      }),
      fetchTask: (_req, ctx) => guarded(h, async () => {
        const { payload, version } = await fetchTask(h, await runnerOf(ctx));
        return payload ? { task: taskMessage(payload), tasksVersion: BigInt(version) } : { tasksVersion: BigInt(version) };
      }),
      updateTask: (req, ctx) => guarded(h, async () => {
        const runner = await runnerOf(ctx, true);
        const { task, sentOutputs } = await updateTaskState(h, runner, taskReportOf(req.state), req.outputs);
        return { state: taskStateMessage(task), sentOutputs };
      }),
      updateLog: (req, ctx) => guarded(h, async () => {
        const runner = await runnerOf(ctx, true);
        const rows = req.rows.map((r) => ({
          timeMs: r.time ? Number(r.time.seconds) * 1000 + Math.floor(r.time.nanos / 1e6) : Date.now(), content: r.content,
        }));
        const ack = await updateTaskLog(db, runner, Number(req.taskId), Number(req.index), rows);
        return { ackIndex: BigInt(ack) };
      }),
    });
  };
}

/** Mounted at /api/actions (express strips the prefix from req.url, which connect routes on). */
export function actionsRunnerRouter(h: Hearth): RequestHandler {
  const handler = connectNodeAdapter({ routes: routes(h) });
  return (req, res) => { handler(req, res); };
}
