import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';

type SerializerFactory = ReturnType<typeof SerializerSelector>;
type SerializerCompiler = ReturnType<SerializerFactory>;
type Serializer = ReturnType<SerializerCompiler>;

const build: SerializerFactory = SerializerSelector();
const compiled = new Map<string, Serializer>();
const sharedKeys = new WeakMap<object, string>();

/**
 * Fastify's response serializers (fast-json-stringify, Fastify's own default) shared by every app this process builds.
 * Fastify compiles one for each route and status whenever an app is built, most of the time the app takes to start;
 * a process that builds it more than once (a test worker runs one server per file, one file after another) compiles
 * each only once. A serializer depends only on its schema, the shared schemas (addSchema) and the options, so the
 * text of the three is its key.
 */
export const sharedSerializers: SerializerFactory = (externalSchemas, options) => {
  const compile = build(externalSchemas, options);
  const shared = externalSchemas && typeof externalSchemas === 'object' ? externalSchemas : {};
  let sharedKey = sharedKeys.get(shared);
  if (sharedKey === undefined) sharedKeys.set(shared, (sharedKey = JSON.stringify(shared)));
  const prefix = `${sharedKey}\0${JSON.stringify(options ?? null)}\0`;
  return (route) => {
    const key = prefix + JSON.stringify(route.schema);
    let serializer = compiled.get(key);
    if (!serializer) compiled.set(key, (serializer = compile(route)));
    return serializer;
  };
};
