/**
 * The schema calls resolver methods directly (src/graphql/invoke.ts) except where type-graphql's
 * invoker does something we rely on. A new resolver that falls back for another reason (middleware,
 * validation settings, custom parameters…) fails here, so the fallback is a decision, not an accident.
 */
import { getSchema } from '../../src/schema';
import { leanResolverReport } from '../../src/graphql/invoke';

const ALLOWED_FALLBACKS = new Set(['@Root typed as a class', '@Args next to @Arg']);

describe('lean resolver invocation', () => {
  it('calls the hot handlers directly and reads plain fields with the default resolver', async () => {
    const schema = await getSchema();
    const report = leanResolverReport()!;
    expect(report.direct).toEqual(
      expect.arrayContaining([
        'Query.bpiCalc',
        'Query.globalRanking',
        'Query.user',
        'User.recommended',
        'User.followers',
        'User.stats',
      ]),
    );
    expect(report.plain.length).toBeGreaterThan(100);
    // A plain field now has no resolver of its own (graphql-jit inlines the property read).
    const [typeName, fieldName] = report.plain[0].split('.');
    const type = schema.getType(typeName) as { getFields(): Record<string, { resolve?: unknown }> };
    expect(type.getFields()[fieldName].resolve).toBeUndefined();
  });

  it('keeps type-graphql’s invoker only for the known reasons', async () => {
    await getSchema();
    const unexpected = leanResolverReport()!.kept.filter((k) => !ALLOWED_FALLBACKS.has(k.reason));
    expect(unexpected).toEqual([]);
  });
});
