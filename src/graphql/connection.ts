import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { ArgsType, Field, Int, ObjectType, type ClassType } from 'type-graphql';
import { GraphQLNonNegativeInt } from './scalars';

/**
 * What a keyset cursor holds after its list's tag (args.ts `keyset` parses it): `int` (32-bit integer), `str`, `num` (a float,
 * kept as its decimal string so it round-trips exactly), `time` (ISO instant → Date), `sealed` (a
 * string sealed with the server's key — a tie-break that must not be readable, e.g. the user id of
 * an anonymous ranking row: `keyset` / `keyCursor` take the key).
 */
export type KeyKind = 'int' | 'str' | 'num' | 'time' | 'sealed';
type KeyValue<K extends KeyKind> = K extends 'int' | 'num' ? number : K extends 'time' ? Date : string;
export type KeyValues<K extends readonly KeyKind[]> = { [I in keyof K]: K[I] extends KeyKind ? KeyValue<K[I]> : never };

/** A parsed keyset request: page size, direction, and the cursor's key (null: from the start, or from the end when backward). */
export interface Keyset<V> {
  size: number;
  backward: boolean;
  key: V | null;
}

export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 20;

@ObjectType({
  description: 'Where a page sits in its list (Relay): whether there are more items, and the cursors of its ends',
})
export class PageInfo {
  @Field(() => Boolean, { description: 'True when items follow this page (pass endCursor as `after` to read them)' })
  hasNextPage!: boolean;
  @Field(() => Boolean, { description: 'True when items precede this page (this page was read with a cursor)' })
  hasPreviousPage!: boolean;
  @Field(() => String, {
    nullable: true,
    description: 'Cursor of the first edge of the page; null when the page is empty',
  })
  startCursor!: string | null;
  @Field(() => String, {
    nullable: true,
    description: "Cursor of the last edge of the page (the next page's `after`); null when the page is empty",
  })
  endCursor!: string | null;
}

@ArgsType()
export class ConnectionArgs {
  @Field(() => Int, { nullable: true, description: `Page size, 1–${MAX_PAGE_SIZE} (default ${DEFAULT_PAGE_SIZE})` })
  first?: number | null;

  @Field(() => String, { nullable: true, description: 'Opaque cursor from pageInfo.endCursor' })
  after?: string | null;
}

/** Connection arguments of a list a UI also pages backwards (rankings, timelines): Relay's `last` / `before` too. */
@ArgsType()
export class BidirectionalConnectionArgs extends ConnectionArgs {
  @Field(() => Int, {
    nullable: true,
    description: `Page size when paging backwards, 1–${MAX_PAGE_SIZE} (default ${DEFAULT_PAGE_SIZE}); not with first`,
  })
  last?: number | null;

  @Field(() => String, {
    nullable: true,
    description: 'Opaque cursor from pageInfo.startCursor: the rows before it (with last)',
  })
  before?: string | null;
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
    @Field(() => String, {
      description: 'Opaque cursor of this item: pass it as `after` to read the items that follow it',
    })
    cursor!: string;
    @Field(() => node, { description: `The ${name}` }) node!: T;
  }
  @ObjectType()
  abstract class ConnectionType {
    @Field(() => [Edge], { description: 'The items of this page, in list order (empty past the end)' }) edges!: Edge[];
    @Field(() => PageInfo, {
      description: 'Whether more items follow or precede this page, and the cursors of its ends',
    })
    pageInfo!: PageInfo;
    @Field(() => GraphQLNonNegativeInt, {
      description: 'Number of items in the whole list (every page), under the same filters',
    })
    totalCount!: number;
  }
  return ConnectionType as unknown as ClassType<Page<T>>;
}

export function encodeCursor(parts: (string | number)[]): string {
  return Buffer.from(JSON.stringify(parts)).toString('base64url');
}

/**
 * A forward keyset page for lists whose cursor is parsed by their own decoder (score lists, rivals,
 * notes): rows fetched with take = size + 1 after the cursor's position (keysetConnection).
 */
export function keysetPage<T>(
  rows: T[],
  size: number,
  after: string | null | undefined,
  cursorOf: (row: T) => string,
  totalCount: number,
): Page<T> {
  return keysetConnection(rows, { size, backward: false, key: after ? after : null }, cursorOf, totalCount);
}

const SEAL_IV = 12;
const SEAL_TAG = 16;

/** The purpose of the server key (AuthService.deriveKey) that seals cursor parts. */
export const CURSOR_KEY_PURPOSE = 'cursor';

/** A string sealed (AES-256-GCM) under `key`, bound to the cursor's list tag: a tie-break the client must not read. */
export function sealCursorPart(key: Buffer, tag: string, value: string): string {
  const iv = randomBytes(SEAL_IV);
  const c = createCipheriv('aes-256-gcm', key, iv);
  c.setAAD(Buffer.from(tag, 'utf8'));
  return Buffer.concat([iv, c.update(value, 'utf8'), c.final(), c.getAuthTag()]).toString('base64url');
}

/** The string `sealCursorPart` sealed (null: another key or tag, tampered). */
export function openCursorPart(key: Buffer, tag: string, sealed: string): string | null {
  try {
    const b = Buffer.from(sealed, 'base64url');
    if (b.length < SEAL_IV + SEAL_TAG) return null;
    const d = createDecipheriv('aes-256-gcm', key, b.subarray(0, SEAL_IV));
    d.setAAD(Buffer.from(tag, 'utf8'));
    d.setAuthTag(b.subarray(b.length - SEAL_TAG));
    return Buffer.concat([d.update(b.subarray(SEAL_IV, b.length - SEAL_TAG)), d.final()]).toString('utf8');
  } catch {
    return null;
  }
}

/** A keyset cursor: the list's tag, then the row's sort key and tie-break (args.ts `keyset` reads it back with the same kinds). */
export function keyCursor<const K extends readonly KeyKind[]>(
  tag: string,
  kinds: K,
  values: KeyValues<K>,
  key?: Buffer,
): string {
  const vs = values as unknown as (string | number | Date)[];
  return encodeCursor([
    tag,
    ...kinds.map((kind, i) => {
      const v = vs[i];
      if (kind === 'num') return String(v);
      if (kind === 'time') return (v as Date).toISOString();
      if (kind === 'sealed') {
        if (!key) throw new Error('keyCursor: a sealed part needs a key');
        return sealCursorPart(key, tag, String(v));
      }
      return v as string | number;
    }),
  ]);
}

/**
 * A keyset page from the rows a query fetched in its direction: `size + 1` rows after the cursor in
 * list order (forward), or before it in reverse list order (backward: `last` / `before`; they are
 * put back in list order here); each cursor is made when it is first read. Relay page info:
 * forward, hasNextPage = a row beyond the page, hasPreviousPage = a cursor was given (rows precede
 * it); backward, the mirror image.
 */
export function keysetConnection<T>(
  rows: T[],
  ks: Keyset<unknown>,
  cursorOf: (row: T) => string,
  totalCount: number,
): Page<T> {
  const more = rows.length > ks.size;
  const slice = rows.slice(0, ks.size);
  if (ks.backward) slice.reverse();
  // Cursors are made when first read, once: a query that selects no cursor (a list of nodes only)
  // encodes and seals none; the end cursors are their edges' own.
  const edges = slice.map((node) => {
    let cursor: string | undefined;
    return {
      node,
      get cursor() {
        return (cursor ??= cursorOf(node));
      },
    };
  });
  return {
    edges,
    totalCount,
    pageInfo: {
      hasNextPage: ks.backward ? ks.key !== null : more,
      hasPreviousPage: ks.backward ? more : ks.key !== null,
      get startCursor() {
        return edges[0]?.cursor ?? null;
      },
      get endCursor() {
        return edges[edges.length - 1]?.cursor ?? null;
      },
    },
  };
}

/**
 * Prisma arguments of a keyset page over two columns (sort key, tie-break), e.g.
 * `[['createdAt', 'desc'], ['id', 'desc']]`: rows strictly after the cursor's key in the direction
 * `ks` asks (the order flipped when backward), `size + 1` of them, for `keysetConnection`.
 */
export function prismaKeyset<V extends readonly [unknown, unknown]>(
  ks: Keyset<V>,
  columns: readonly [[string, 'asc' | 'desc'], [string, 'asc' | 'desc']],
): { where: Record<string, unknown>; orderBy: Record<string, 'asc' | 'desc'>[]; take: number } {
  const dir = (d: 'asc' | 'desc') => (ks.backward ? (d === 'asc' ? 'desc' : 'asc') : d);
  const orderBy = columns.map(([c, d]) => ({ [c]: dir(d) }));
  const op = (d: 'asc' | 'desc') => (dir(d) === 'desc' ? 'lt' : 'gt');
  const [[c1, d1], [c2, d2]] = columns;
  // the redundant bound on the first column makes the cursor an index condition (a deep page reads its rows only)
  const where =
    ks.key === null
      ? {}
      : {
          AND: [
            { [c1]: { [`${op(d1)}e`]: ks.key[0] } },
            { OR: [{ [c1]: { [op(d1)]: ks.key[0] } }, { [c1]: ks.key[0], [c2]: { [op(d2)]: ks.key[1] } }] },
          ],
        };
  return { where, orderBy, take: ks.size + 1 };
}

/**
 * The rows `keysetConnection` wants from a list sorted in memory (small, bounded lists): up to
 * `size + 1` rows after the cursor's key, or before it in reverse order when backward.
 * `compare(row, key)` is negative when the row comes before the key in list order.
 */
export function keysetSlice<T, V>(sorted: readonly T[], ks: Keyset<V>, compare: (row: T, key: V) => number): T[] {
  const key = ks.key;
  if (!ks.backward) return (key === null ? sorted : sorted.filter((r) => compare(r, key) > 0)).slice(0, ks.size + 1);
  const before = key === null ? sorted : sorted.filter((r) => compare(r, key) < 0);
  return before.slice(Math.max(0, before.length - ks.size - 1)).reverse();
}
