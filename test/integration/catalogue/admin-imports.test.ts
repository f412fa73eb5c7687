import { startTestServer, type TestServer } from '../../helpers/server';
import { anAdmin } from '../../helpers/factories';

/** The admin imports that take JSON text: valid JSON of the wrong shape is the caller's error, never a 500. */
describe('admin imports refuse JSON of the wrong shape with BAD_USER_INPUT', () => {
  let s: TestServer;
  let token: string;
  beforeAll(async () => {
    s = await startTestServer();
    token = await s.tokenFor((await anAdmin(s.db.prisma)).id);
  });
  afterAll(() => s.close());

  const mutations = [
    'mutation($j: String!) { importDefinitions(json: $j) { added } }',
    'mutation($j: String!) { importOfficialArena(json: $j) { players } }',
    'mutation($j: String!) { importRadarCategories(json: $j) { __typename } }',
  ];
  for (const m of mutations) {
    it(m.slice(0, 60), async () => {
      for (const j of ['33', 'null', '"text"', '{}', '[1, 2]', '{not json']) {
        const res = await s.gql(m, { j }, token);
        expect({ j, code: res.body.errors?.[0]?.extensions?.code ?? 'OK' }).not.toEqual({
          j,
          code: 'INTERNAL_SERVER_ERROR',
        });
      }
    });
  }
});
