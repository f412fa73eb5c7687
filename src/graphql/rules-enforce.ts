import { forbidden, notFound, unauthenticated } from '../errors';
import type { Context } from './context';
import { RULES, type RuleEntry, type RuleName } from './rules';
import { canView, userVisibility } from './user-visibility';

/**
 * The verdicts of the rule table (src/graphql/rules.ts): `enforce` for root operations,
 * `fieldAllowed` for object fields and Relay nodes, called by the schema's rule wrapper
 * (src/graphql/rules-schema.ts), node resolution (src/graphql/node.ts) and subscriptions.
 */

const byUserId = (args: Record<string, unknown>) => args.userId as string | undefined;

function noViewer(ctx: Context) {
  return ctx.identity
    ? unauthenticated('This identity has no account yet: create your profile first (createProfile)')
    : unauthenticated();
}

/**
 * Enforces one rule for one operation. Throws UNAUTHENTICATED / FORBIDDEN / NOT_FOUND.
 * Synchronous for the rules that need no lookup (PUBLIC, AUTHENTICATED, ADMIN); a promise for
 * OWNER / VISIBLE (target and follow lookups). Callers `await` it either way.
 */
export function enforce(
  ctx: Context,
  operation: string,
  args: Record<string, unknown>,
  kind: 'read' | 'write',
): void | Promise<void> {
  const entry = RULES[operation];
  if (!entry) throw forbidden(`No authorization rule for ${operation}`);
  const scope = entry.scope ?? kind;
  if (ctx.viewer?.scopes && entry.firstParty) {
    throw forbidden('Third-party application tokens cannot do this: use your own access token');
  }
  if (ctx.viewer?.scopes && !ctx.viewer.scopes.includes(scope)) {
    throw forbidden(`This token lacks the '${scope}' scope`);
  }
  switch (entry.rule) {
    case 'PUBLIC':
      return;
    case 'AUTHENTICATED':
      if (!ctx.viewer) throw noViewer(ctx);
      return;
    case 'ADMIN':
      if (!ctx.viewer) throw noViewer(ctx);
      if (!ctx.viewer.isAdmin) throw forbidden('Administrators only');
      return;
    case 'OWNER':
      if (!ctx.viewer) throw noViewer(ctx);
      return enforceOwner(ctx, ctx.viewer.id, entry, args);
    case 'VISIBLE':
      return enforceVisible(ctx, entry, args);
  }
}

async function enforceOwner(
  ctx: Context,
  viewerId: string,
  entry: RuleEntry,
  args: Record<string, unknown>,
): Promise<void> {
  const target = await (entry.target ?? byUserId)(args, ctx);
  if (target === viewerId) return;
  // an administrator may act for someone, with their own token only (never through a third-party app)
  if (target !== undefined && ctx.viewer?.isAdmin && !ctx.viewer.scopes) {
    // …for someone who exists (an unknown or malformed id is NOT_FOUND, not a failed write)
    if (!(await ctx.app.areas.access.user(ctx, target))) throw notFound('User not found');
    return;
  }
  throw forbidden('Only the owner may do this');
}

async function enforceVisible(ctx: Context, entry: RuleEntry, args: Record<string, unknown>): Promise<void> {
  const target = await (entry.target ?? byUserId)(args, ctx);
  if (!target) return;
  if (!(await canView(ctx, target))) throw forbidden('This profile is set as a private.');
}

/**
 * Whether an object-field entry lets the caller read the field: true / false, or a promise of it
 * (VISIBLE asks once per user and request: userVisibility). Throws when the entry's deny is
 * 'error'. Synchronous whenever no lookup is needed.
 */
export function fieldAllowed(
  ctx: Context,
  entry: RuleEntry,
  root: unknown,
  args: Record<string, unknown>,
): boolean | Promise<boolean> {
  let ok: boolean | Promise<boolean>;
  switch (entry.rule) {
    case 'PUBLIC':
      return true;
    case 'AUTHENTICATED':
      ok = ctx.viewer !== null;
      break;
    case 'ADMIN':
      ok = ctx.viewer?.isAdmin === true;
      break;
    case 'OWNER':
    case 'VISIBLE': {
      const target = entry.target!(args, ctx, root);
      // A User field's parent is the user row: a public row is visible at once (no lookup, no
      // promise), so the VISIBLE fields of a list of players resolve in one tick and their
      // loaders batch once (the nested rivalry read: one rivalry statement for 50 players).
      const row = entry.targetIsRoot ? (root as { id: string; isPublic?: boolean }) : undefined;
      ok =
        target instanceof Promise
          ? target.then((t) => targetAllowed(ctx, entry.rule, t, row))
          : targetAllowed(ctx, entry.rule, target, row);
      break;
    }
  }
  if (entry.deny !== 'error') return ok;
  return ok instanceof Promise ? ok.then((v) => v || refuse(ctx)) : ok || refuse(ctx);
}

function targetAllowed(
  ctx: Context,
  rule: RuleName,
  target: string | undefined,
  row?: { id: string; isPublic?: boolean },
): boolean | Promise<boolean> {
  if (target === undefined) return false;
  if (rule === 'OWNER') return ctx.viewer?.id === target;
  return userVisibility(ctx, row?.id === target ? row : { id: target });
}

function refuse(ctx: Context): never {
  throw ctx.viewer ? forbidden('You may not see this') : noViewer(ctx);
}

/** The verdict of the table for one object field (REST routes that assemble a type by hand use it). */
export function fieldVerdict(
  ctx: Context,
  coordinate: string,
  root: unknown,
  args: Record<string, unknown> = {},
): boolean | Promise<boolean> {
  const entry = RULES[coordinate];
  if (!entry) throw forbidden(`No authorization rule for ${coordinate}`);
  return fieldAllowed(ctx, entry, root, args);
}
