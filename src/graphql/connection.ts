import { ArgsType, Field, Int, ObjectType, type ClassType } from 'type-graphql';

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

/**
 * Offset-cursor pages for small, stable-ordered lists: rows fetched with take = size + 1 from
 * `offset` (args.ts offsetArgs parses first / after).
 */
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

/**
 * Keyset pages (cursor over a stable sort key, e.g. (createdAt, id)): rows fetched with
 * take = size + 1 after the cursor's position; `cursorOf` encodes a row's position.
 */
export function keysetPage<T>(rows: T[], size: number, after: string | null | undefined, cursorOf: (row: T) => string, totalCount: number): Page<T> {
  const edges = rows.slice(0, size).map((node) => ({ cursor: cursorOf(node), node }));
  return {
    edges,
    totalCount,
    pageInfo: {
      hasNextPage: rows.length > size,
      hasPreviousPage: Boolean(after),
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges[edges.length - 1]?.cursor ?? null,
    },
  };
}
