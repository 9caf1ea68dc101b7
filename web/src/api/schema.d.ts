// The API's types, generated into the SDK by `npm run openapi`: one copy serves both clients.
export type { components, paths } from '../../../sdk/src/schema.js';
