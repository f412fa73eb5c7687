import { openTestDatabase, usingPostgres } from '../../helpers/db';
import { aPublicPlayer } from '../../helpers/factories';
import { leasePglite } from '../../helpers/pglite-pool';
import { describeIf } from '../../helpers/skip';

/**
 * The test suite's PGlite pool (test/helpers/pglite-pool.ts): a database a file leases is the
 * template again, whatever the file before did with its lease.
 */
describeIf(!usingPostgres, 'the pool serves the PGlite run only (PostgreSQL clones with CREATE DATABASE)')(
  'test pool of reset PGlite instances',
  () => {
    it('a new lease holds the template rows again: writes, sequences and session settings of the last lease are gone', async () => {
      const first = await openTestDatabase({ seeded: true });
      const songs = await first.prisma.song.count();
      expect(songs).toBeGreaterThan(0); // the demo catalogue
      const maxId = (await first.prisma.song.aggregate({ _max: { id: true } }))._max.id!;
      const added = await first.prisma.song.create({ data: { title: 'Pool Probe' } });
      expect(added.id).toBe(maxId + 1); // the serial id continues after the template's rows
      await aPublicPlayer(first.prisma, { name: 'poolprobe' });
      await first.prisma.$executeRawUnsafe(`SET statement_timeout = '123s'`);
      await first.close();

      const second = await openTestDatabase({ seeded: true });
      try {
        expect(await second.prisma.song.count()).toBe(songs);
        expect(await second.prisma.song.findUnique({ where: { title: 'Pool Probe' } })).toBeNull();
        expect(await second.prisma.user.count()).toBe(0);
        // the sequence is back where the template left it: the same id again
        expect((await second.prisma.song.create({ data: { title: 'Pool Probe 2' } })).id).toBe(maxId + 1);
        const [{ statement_timeout }] =
          await second.prisma.$queryRawUnsafe<{ statement_timeout: string }[]>('SHOW statement_timeout');
        expect(statement_timeout).toBe('0');
      } finally {
        await second.close();
      }

      // an unseeded lease of the same instance: no catalogue
      const plain = await openTestDatabase({ seeded: false });
      try {
        expect(await plain.prisma.song.count()).toBe(0);
      } finally {
        await plain.close();
      }
    });

    it('a released lease refuses statements (a job left running cannot write into the next file)', async () => {
      const lease = await leasePglite(false);
      await lease.instance.query('SELECT 1');
      await lease.release();
      expect(() => lease.instance.query('SELECT 1')).toThrow(TypeError); // the revoked proxy
    });

    it('an instance whose schema a test changed is not lent again', async () => {
      const lease = await leasePglite(false);
      await lease.instance.exec('CREATE TABLE "PoolProbe" (id int)');
      await lease.release();
      for (let i = 0; i < 3; i++) {
        const next = await leasePglite(false);
        try {
          const r = await next.instance.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public' AND tablename = 'PoolProbe'`,
          );
          expect(r.rows[0].n).toBe(0);
        } finally {
          await next.release();
        }
      }
    });
  },
);
