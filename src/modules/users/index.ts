import { defineArea } from '../area';
import { userNodes } from './users.nodes';
import { createUserLoaders, type UserLoaders } from './users.loaders';
import { FollowConnectionResolver, UsersResolver } from './users.resolver';
import { UsersService } from './users.service';

/**
 * Users: profiles (read, create, update, delete), follow counts and connections, and the
 * lookups the rule table needs (who a user is, who follows whom with approval). Depends on no
 * other area.
 */
export const usersArea = defineArea({
  name: 'users',
  resolvers: [UsersResolver, FollowConnectionResolver],
  loaders: createUserLoaders,
  nodes: userNodes,
  services: (s) => new UsersService(s),
  access: {
    user: (ctx, id) => ctx.loaders.users.byId.load(id),
    userByName: (ctx, name) => ctx.services.users.userByName(name),
    approvedFollow: (ctx, followerId, followingId) =>
      ctx.loaders.users.approvedFollow.load({ followerId, followingId }),
  },
});

declare module '../../graphql/context' {
  interface Services {
    users: UsersService;
  }
  interface Loaders {
    users: UserLoaders;
  }
}
