import { ArgsType, Field, Int, ObjectType, type ClassType } from 'type-graphql';
import { badInput } from '../errors';

export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 20;

@ObjectType()
export class PageInfo {
  @Field(() => Boolean) hasNextPage!: boolean;
  @Field(() => Boolean) hasPreviousPage!: boolean;
  @Field(() => String, { nullable: true }) startCursor!: string | null;
  @Field(() => String, { nullable: true }) endCursor!: string | null;
}

@ArgsType()
export class ConnectionArgs {
  @Field(() => Int, { nullable: true, description: `Page size, 1–${MAX_PAGE_SIZE} (default ${DEFAULT_PAGE_SIZE})` })
  first?: number | null;

  @Field(() => String, { nullable: true, description: 'Opaque cursor from pageInfo.endCursor' })
  after?: string | null;
}

export interface Page<T> {
  edges: { cursor: string; node: T }[];
  pageInfo: PageInfo;
  totalCount: number;
}

/** Builds `<Name>Connection` and `<Name>Edge` object types for a node type. */
export function Connection<T extends object>(node: ClassType<T>, name: string) {
  @ObjectType(`${name}Edge`)
  class Edge {
    @Field(() => String) cursor!: string;
    @Field(() => node) node!: T;
  }
  @ObjectType()
  abstract class ConnectionType {
    @Field(() => [Edge]) edges!: Edge[];
    @Field(() => PageInfo) pageInfo!: PageInfo;
    @Field(() => Int) totalCount!: number;
  }
  return ConnectionType as unknown as ClassType<Page<T>>;
}

export function encodeCursor(parts: (string | number)[]): string {
  return Buffer.from(JSON.stringify(parts)).toString('base64url');
}

/** Numbers a cursor may hold (ids, counts, offsets): 32-bit integers, as the columns they page over. */
const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;
const cursorPart = (p: unknown) =>
  (typeof p === 'string' && p.length <= 512) || (typeof p === 'number' && Number.isInteger(p) && p >= INT32_MIN && p <= INT32_MAX);

/**
 * The parts of an opaque cursor; BAD_USER_INPUT unless it is a JSON array of `arity` strings and
 * 32-bit integers (a forged 1e300 or 2^40 must never reach SQL, where it would be a 500).
 */
export function decodeCursor(cursor: string, arity: number): (string | number)[] {
  try {
    const parts = cursor.length <= 1024 ? JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) : undefined;
    if (Array.isArray(parts) && parts.length === arity && parts.every(cursorPart)) {
      return parts;
    }
  } catch {
    /* fall through */
  }
  throw badInput('Invalid cursor', [{ code: 'invalid_cursor', path: ['after'], message: 'Invalid cursor' }]);
}

export function pageSize(first: number | null | undefined, max = MAX_PAGE_SIZE, def = DEFAULT_PAGE_SIZE): number {
  if (first === null || first === undefined) return def;
  if (!Number.isInteger(first) || first < 1 || first > max) {
    throw badInput(`first must be between 1 and ${max}`, [{ code: 'too_big', path: ['first'], message: `first must be between 1 and ${max}` }]);
  }
  return first;
}

/** Offset-cursor pages for small, stable-ordered lists: rows fetched with take = size + 1. */
export function offsetPage<T>(rows: T[], offset: number, size: number, totalCount: number): Page<T> {
  const slice = rows.slice(0, size);
  const edges = slice.map((node, i) => ({ cursor: encodeCursor([offset + i + 1]), node }));
  return {
    edges,
    totalCount,
    pageInfo: {
      hasNextPage: rows.length > size,
      hasPreviousPage: offset > 0,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges[edges.length - 1]?.cursor ?? null,
    },
  };
}

export function offsetFromCursor(after: string | null | undefined): number {
  if (!after) return 0;
  const [n] = decodeCursor(after, 1);
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) throw badInput('Invalid cursor');
  return n;
}
