import { defineConfig } from 'prisma/config';

// The datasource URL is only used by Prisma CLI commands that talk to a database; bpigraph runs
// migrations itself (src/db/migrate.ts) and connects through driver adapters at run time.
export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
});
