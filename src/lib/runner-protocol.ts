// Everything of Gitea's runner protocol that runs (connect-RPC, protobuf-es and the generated
// runner.v1 and ping.v1 code), gathered in one module so that the executable packs it as one
// lazily compiled bundle (scripts/build-lazy-libraries.mjs, LAZY_SOURCES): its ~185 KB of source
// stayed in the application's bundle, resident from every start on, though only a runner's
// request, the embedded runner or `hearth runner` runs it. One bundle, and the only door to these
// packages (test/startup-loading.test.ts): connect and the generated messages must share one copy
// of protobuf-es, and a second copy in the application's bundle would be resident again.
export { create } from '@bufbuild/protobuf';
export { timestampFromDate, timestampFromMs } from '@bufbuild/protobuf/wkt';
export { Code, ConnectError, createClient } from '@connectrpc/connect';
export { connectNodeAdapter, createConnectTransport } from '@connectrpc/connect-node';
export * from './actions-proto/ping/v1/messages_pb';
export * from './actions-proto/ping/v1/services_pb';
export * from './actions-proto/runner/v1/messages_pb';
export * from './actions-proto/runner/v1/services_pb';
