/**
 * A JSON object as a test reads it from the API, a bus reply or a YAML file: each test asserts
 * the shape it relies on, so the type stays open (supertest's `res.body` is `any` for the same
 * reason). Test code only; services type what they read.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above: open JSON, asserted by each test
export type ApiJson = Record<string, any>;
