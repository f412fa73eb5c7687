import { ArgsType, Field, Int, ObjectType, type ClassType } from 'type-graphql';
import { GraphQLNonNegativeInt } from './scalars';

export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 20;

@ObjectType({ description: 'Where a page sits in its list (Relay): whether there are more items, and the cursors of its ends' })
export class PageInfo {
  @Field(() => Boolean, { description: 'True when items follow this page (pass endCursor as `after` to read them)' }) hasNextPage!: boolean;
  @Field(() => Boolean, { description: 'True when items precede this page (this page was read with a cursor)' }) hasPreviousPage!: boolean;
  @Field(() => String, { nullable: true, description: 'Cursor of the first edge of the page; null when the page is empty' }) startCursor!: string | null;
  @Field(() => String, { nullable: true, description: 'Cursor of the last edge of the page (the next page\'s `after`); null when the page is empty' }) endCursor!: string | null;
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
  @ObjectType(`${name}Edge`, { description: `One ${name} of a page, with its position in the list` })
  class Edge {
    @Field(() => String, { description: 'Opaque cursor of this item: pass it as `after` to read the items that follow it' }) cursor!: string;
    @Field(() => node, { description: `The ${name}` }) node!: T;
  }
  @ObjectType()
  abstract class ConnectionType {
    @Field(() => [Edge], { description: 'The items of this page, in list order (empty past the end)' }) edges!: Edge[];
    @Field(() => PageInfo, { description: 'Whether more items follow or precede this page, and the cursors of its ends' }) pageInfo!: PageInfo;
    @Field(() => GraphQLNonNegativeInt, { description: 'Number of items in the whole list (every page), under the same filters' }) totalCount!: number;
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
