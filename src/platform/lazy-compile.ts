// Route schemas compiled at a route's first use, not at start (issue 30: `gable serve` answers within 1.5 s).
// Fastify compiles a validator (Ajv) for each request part of each route and a serializer (fast-json-stringify)
// for each status of each response while the app is built: for ~200 routes that was about 0.6 s of the 2.4 s of
// CPU a start took (a --cpu-prof of `gable serve`), mostly for routes a given server may not see for hours.
// Compiled on first call instead, each costs its route's first request a few milliseconds, once. A schema that
// cannot compile would fail its route's requests (500) instead of the start; test/openapi.test.ts checks every
// schema of the document against the JSON Schema 2020-12 meta-schema, and the route fuzzer calls every route.
import { SerializerSelector, type Serializer, type SerializerFactory } from '@fastify/fast-json-stringify-compiler';
import type { FastifySchemaCompiler } from 'fastify';
import type { FastifyValidationResult } from 'fastify/types/schema.js';
import { serializerSchema } from './serializer-schema.js';

/** `compile`, deferred to each validator's first call. Fastify reads `.errors` after a call that answered false. */
export function lazyValidatorCompiler(compile: FastifySchemaCompiler<unknown>): FastifySchemaCompiler<unknown> {
  return (route) => {
    let validate: FastifyValidationResult | undefined;
    const lazy: FastifyValidationResult = (data) => {
      validate ??= compile(route);
      const result = validate(data);
      lazy.errors = validate.errors;
      return result;
    };
    return lazy;
  };
}

/**
 * Fastify's own serializer factory (fast-json-stringify, with the shared schemas), each one compiled when first used,
 * from the route's schema with its nullable unions as type lists (platform/serializer-schema.ts).
 */
export const lazySerializerFactory: SerializerFactory = (externalSchemas, options) => {
  const compile = SerializerSelector()(externalSchemas, options);
  return (route) => {
    let serialize: Serializer | undefined;
    return (doc) => (serialize ??= compile({ ...route, schema: serializerSchema(route.schema) }))(doc);
  };
};
