import fs from 'node:fs';
import { printSdl, SCHEMA_FILE } from '../../src/graphql/schema';
import { getSchema } from '../../src/schema';

describe('schema.graphql (the committed contract)', () => {
  it('matches the code-first schema — run `npm run schema:emit` when this fails', async () => {
    const sdl = printSdl(await getSchema());
    expect(fs.readFileSync(SCHEMA_FILE, 'utf8')).toBe(sdl);
  });
});
