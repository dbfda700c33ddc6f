// The definitions of the API's answers (and of the few bodies handlers read their own way),
// with Gitea's names, property names and types. The bodies handlers validate are named where
// their zod schemas live (named() in validate.ts). Loaded only to build /swagger.v1.json and
// by the type test that holds src/convert to them.
export * from './accounts';
export * from './actions';
export * from './activity';
export * from './code';
export * from './extensions';
export * from './issues';
export * from './misc';
export * from './pulls';
export * from './repos';
