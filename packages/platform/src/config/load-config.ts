import Ajv from 'ajv';
import type { Static, TObject } from '@sinclair/typebox';
import { fieldOf } from '../basics/error-fields';

const ajv = new Ajv({ allErrors: true, coerceTypes: true, useDefaults: true, strict: false });

/** Start-up failed because the environment is wrong; `problems` names every bad key. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Reads the keys of `schema` from `env` once, applies schema defaults, coerces strings to the
 * declared types, checks everything, and returns a frozen object. Unset and empty variables take
 * their default. Throws ConfigError listing every bad key at once.
 */
export function loadConfig<S extends TObject>(schema: S, env: NodeJS.ProcessEnv = process.env): Readonly<Static<S>> {
  const raw: Record<string, unknown> = {};
  for (const key of Object.keys(schema.properties)) {
    const value = env[key];
    if (value !== undefined && value !== '') raw[key] = value;
  }
  const check = ajv.compile<Static<S>>(schema);
  if (!check(raw)) {
    const problems = (check.errors ?? []).map((e) => {
      const key = e.instancePath.replace(/^\//, '') || String(fieldOf(e.params, 'missingProperty') ?? '');
      return `${key}: ${e.message ?? 'invalid'}${key && env[key] !== undefined ? ` (got "${env[key]}")` : ''}`;
    });
    throw new ConfigError([...new Set(problems)]);
  }
  return Object.freeze(raw);
}
