import { z } from 'zod';
import { badInput, type ErrorIssue } from '../errors';

/**
 * Query parameters of the REST routes: one zod schema per route both validates the query string
 * and documents it (src/rest/openapi.ts renders the schema's input side: integers as `integer`,
 * flags as `boolean`, closed sets as `enum`, lists as arrays), so typed clients get the real types.
 */

const blank = (v: unknown) => (v === '' ? undefined : v);

/** An integer parameter (`?limit=10`); anything else is refused with `message`. */
export const queryInt = (message: string) =>
  z.preprocess(blank, z.coerce.number({ error: message }).int({ error: message })).optional();

/** A true/false flag (`?compare=true`); anything else is refused with `message`. */
export const queryBool = (message: string) =>
  z
    .preprocess((v) => (v === 'true' ? true : v === 'false' ? false : blank(v)), z.boolean({ error: message }))
    .optional();

/** One of a closed set of words (`?sort=latest`). */
export const queryEnum = <const T extends readonly [string, ...string[]]>(values: T, message: string) =>
  z.preprocess(blank, z.enum(values, { error: message })).optional();

/** A list, repeated (`?level=11&level=12`) or comma-separated (`?level=11,12`). */
export const queryList = <T extends z.ZodType>(item: T) =>
  z
    .preprocess(
      (v) =>
        v === undefined ? undefined : (Array.isArray(v) ? v.map(String) : String(v).split(',')).filter((s) => s !== ''),
      z.array(item),
    )
    .optional();

/** Parses a route's query with its schema: BAD_USER_INPUT (400) with every issue, the message `message` or the first issue's. */
export function parseQuery<S extends z.ZodType>(schema: S, query: unknown, message?: string): z.output<S> {
  const parsed = schema.safeParse(query ?? {});
  if (parsed.success) return parsed.data;
  const issues: ErrorIssue[] = parsed.error.issues.map((i) => ({
    code: i.code,
    path: i.path.map((p) => (typeof p === 'symbol' ? String(p) : p)),
    message: i.message,
  }));
  throw badInput(message ?? issues[0].message, issues);
}
