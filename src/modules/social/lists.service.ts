import { badInput, notFound } from '../../errors';
import { keyset } from '../../graphql/args';
import { keyCursor, keysetConnection, type Page } from '../../graphql/connection';

/** Cursor kinds of followingWithLists: [name key, user id]. */
const FOLLOWING_KEY = ['str', 'str'] as const;
import type { AreaScope } from '../area';
import { followState, type FollowState } from '../../domain/follow-state';

export const LIST_NAME_MAX = 50;

export interface FollowListRow {
  id: number;
  name: string;
  isPublic: boolean;
  createdAt: Date;
  memberCount: number;
}

/** Trims and checks a list name (1–50 characters after trimming). */
export function listName(raw: string): string {
  const name = raw.trim();
  if (!name) throw badInput('name is required', [{ code: 'too_small', path: ['name'], message: 'name is required' }]);
  if ([...name].length > LIST_NAME_MAX) {
    throw badInput(`name must be at most ${LIST_NAME_MAX} characters`, [
      { code: 'too_big', path: ['name'], message: `name must be at most ${LIST_NAME_MAX} characters` },
    ]);
  }
  return name;
}

/** Follow lists: owner-only groupings of the users one follows. */
export class ListsService {
  constructor(private readonly s: Pick<AreaScope, 'db'>) {}

  private get db() {
    return this.s.db;
  }

  async lists(ownerId: string): Promise<FollowListRow[]> {
    const rows = await this.db.followList.findMany({
      where: { ownerId },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      include: { _count: { select: { members: true } } },
    });
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      isPublic: r.isPublic,
      createdAt: r.createdAt,
      memberCount: r._count.members,
    }));
  }

  private async owned(ownerId: string, listId: number): Promise<FollowListRow> {
    const r = await this.db.followList.findFirst({
      where: { id: listId, ownerId },
      include: { _count: { select: { members: true } } },
    });
    if (!r) throw notFound('List not found');
    return { id: r.id, name: r.name, isPublic: r.isPublic, createdAt: r.createdAt, memberCount: r._count.members };
  }

  async create(ownerId: string, rawName: string, isPublic: boolean | null | undefined): Promise<FollowListRow> {
    const name = listName(rawName);
    const r = await this.db.followList.create({ data: { ownerId, name, isPublic: isPublic ?? false } });
    return { id: r.id, name: r.name, isPublic: r.isPublic, createdAt: r.createdAt, memberCount: 0 };
  }

  async update(
    ownerId: string,
    listId: number,
    patch: { name?: string | null; isPublic?: boolean | null },
  ): Promise<FollowListRow> {
    const data: { name?: string; isPublic?: boolean } = {};
    if (patch.name !== undefined && patch.name !== null) data.name = listName(patch.name);
    if (patch.isPublic !== undefined && patch.isPublic !== null) data.isPublic = patch.isPublic;
    if (!Object.keys(data).length) throw badInput('name or isPublic is required');
    const { count } = await this.db.followList.updateMany({ where: { id: listId, ownerId }, data });
    if (!count) throw notFound('List not found');
    return this.owned(ownerId, listId);
  }

  async delete(ownerId: string, listId: number): Promise<void> {
    const { count } = await this.db.followList.deleteMany({ where: { id: listId, ownerId } });
    if (!count) throw notFound('List not found');
  }

  /** Adds a followed user (idempotent). The list must be the owner's and the user followed by them. */
  async addMember(ownerId: string, listId: number, userId: string): Promise<void> {
    await this.db.$transaction(async (tx) => {
      const list = await tx.followList.findFirst({ where: { id: listId, ownerId }, select: { id: true } });
      if (!list) throw notFound('List not found');
      // FOR SHARE: a concurrent unfollow deletes the follow only after this commits, and then the
      // membership with it (REMOVE_FROM_LISTS) — never a member the owner does not follow
      const follow = await tx.$queryRaw<{ ok: number }[]>`
        SELECT 1 AS ok FROM "Follow" WHERE "followerId" = ${ownerId} AND "followingId" = ${userId} FOR SHARE`;
      if (!follow.length)
        throw badInput('Not following this user', [
          { code: 'not_following', path: ['userId'], message: 'Not following this user' },
        ]);
      await tx.followListMember.createMany({ data: [{ listId, userId }], skipDuplicates: true });
    });
  }

  async removeMember(ownerId: string, listId: number, userId: string): Promise<void> {
    const list = await this.db.followList.findFirst({ where: { id: listId, ownerId }, select: { id: true } });
    if (!list) throw notFound('List not found');
    await this.db.followListMember.deleteMany({ where: { listId, userId } });
  }

  /** Everyone the owner follows (by name), with the ids of the owner's lists they are in. */
  async followingWithLists(
    ownerId: string,
    first?: number | null,
    after?: string | null,
  ): Promise<Page<{ userId: string; state: FollowState; followedAt: Date; listIds: number[] }>> {
    const tag = 'followingWithLists';
    const ks = keyset({ first, after }, tag, FOLLOWING_KEY);
    const where = { followerId: ownerId };
    // keyset over (the followed user's name key, their id)
    const position = ks.key
      ? {
          OR: [
            { following: { nameKey: { gt: ks.key[0] } } },
            { following: { nameKey: ks.key[0] }, followingId: { gt: ks.key[1] } },
          ],
        }
      : {};
    const [rows, total] = await Promise.all([
      this.db.follow.findMany({
        where: { ...where, ...position },
        orderBy: [{ following: { nameKey: 'asc' } }, { followingId: 'asc' }],
        take: ks.size + 1,
        select: {
          followingId: true,
          approvedAt: true,
          createdAt: true,
          following: { select: { isPublic: true, nameKey: true } },
        },
      }),
      this.db.follow.count({ where }),
    ]);
    const page = keysetConnection(
      rows,
      ks,
      (r) => keyCursor(tag, FOLLOWING_KEY, [r.following.nameKey, r.followingId]),
      total,
    );
    const ids = page.edges.map((e) => e.node.followingId);
    const members = ids.length
      ? await this.db.followListMember.findMany({
          where: { userId: { in: ids }, list: { ownerId } },
          select: { listId: true, userId: true },
          orderBy: { listId: 'asc' },
        })
      : [];
    const byUser = new Map<string, number[]>();
    for (const m of members) byUser.set(m.userId, [...(byUser.get(m.userId) ?? []), m.listId]);
    const node = (r: (typeof rows)[number]) => ({
      userId: r.followingId,
      state: followState({
        isSelf: false,
        targetIsPublic: r.following.isPublic,
        follow: { approvedAt: r.approvedAt },
        hasPendingRequest: false,
      }),
      followedAt: r.createdAt,
      listIds: byUser.get(r.followingId) ?? [],
    });
    return { ...page, edges: page.edges.map((e) => ({ cursor: e.cursor, node: node(e.node) })) };
  }
}
