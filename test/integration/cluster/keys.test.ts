/**
 * Signing keys shared through PostgreSQL (docs/cluster-keys.md): two app instances with their own
 * pools and data directories and no JWT_SECRET — as two server processes on two machines — sign
 * with one key created once; a token of one works on the other; a rotation (the CLI's
 * `keys rotate`, a third process) reaches both through the bus, the previous key verifies until
 * its expiry, and a process that missed the announcement re-reads the keys on an unknown kid.
 * PostgreSQL only (PGlite keeps its data directory's secret: one process by construction).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { decodeProtectedHeader } from 'jose';
import { DatabaseKeyRing, rotateAccessKey } from '../../../src/modules/auth/keys';
import { usingPostgres } from '../../helpers/db';
import { runCli, startProcessLike, within, type Instance } from '../../helpers/cluster';
import { aPublicPlayer } from '../../helpers/factories';
import { startTestServer, type TestServer } from '../../helpers/server';
import type { DatabaseHandle } from '../../../src/db/client';
import { describeIf } from '../../helpers/skip';

if (!usingPostgres)
  console.warn(
    'cluster/keys.test: skipped on PGlite (keys live in the database on PostgreSQL only); run with DATABASE_URL=postgresql://…',
  );
const describePg = describeIf(
  usingPostgres,
  'PostgreSQL only: keys live in the database there (run with DATABASE_URL)',
);

const ME = '{ me { databaseId } }';

describePg('signing keys shared through PostgreSQL', () => {
  let base: TestServer;
  let a: Instance & { db: DatabaseHandle };
  let b: Instance & { db: DatabaseHandle };
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bpigraph-keys-'));

  beforeAll(async () => {
    base = await startTestServer({ seedDemo: false }); // the database (its own app signs with the test secret)
    // the first two start at once: the keys are created once, under the advisory lock
    [a, b] = await Promise.all([
      startProcessLike(base.db.url!, path.join(tmp, 'a')),
      startProcessLike(base.db.url!, path.join(tmp, 'b')),
    ]);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await base?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  const me = async (inst: Instance, token: string) => {
    const res = await fetch(`${inst.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query: ME }),
    });
    return (await res.json()) as { data?: { me: { databaseId: string } | null }; errors?: { message: string }[] };
  };
  const kidOf = (token: string) => decodeProtectedHeader(token).kid;

  it('creates one key for both, writes no secret into either data directory, and tokens cross', async () => {
    const keys = await base.db.prisma.serverKey.findMany({ select: { purpose: true, alg: true } });
    expect(keys.map((k) => `${k.purpose}/${k.alg}`).sort()).toEqual(['access/ES256', 'root/HKDF']);
    expect(fs.existsSync(path.join(tmp, 'a', 'jwt-secret')) || fs.existsSync(path.join(tmp, 'b', 'jwt-secret'))).toBe(
      false,
    );
    const u = await aPublicPlayer(base.db.prisma);
    const fromA = (await a.app.auth.issueAccessToken(u.id)).token;
    const fromB = (await b.app.auth.issueAccessToken(u.id)).token;
    expect(kidOf(fromA)).toBe(kidOf(fromB));
    expect(decodeProtectedHeader(fromA).alg).toBe('ES256');
    expect((await me(b, fromA)).data?.me?.databaseId).toBe(u.id);
    expect((await me(a, fromB)).data?.me?.databaseId).toBe(u.id);
    // derived keys agree too: a cursor sealed by one opens on the other
    expect(a.app.auth.deriveKey('x').equals(b.app.auth.deriveKey('x'))).toBe(true);
    // the key set lists the public key (no private part)
    const jwks = (await (await fetch(`${b.url}/.well-known/jwks.json`)).json()) as { keys: Record<string, string>[] };
    expect(jwks.keys.map((k) => k.kid)).toEqual([kidOf(fromA)]);
    expect(jwks.keys[0].d).toBeUndefined();
  });

  it('`keys rotate` (another process) reaches both; the old key verifies until it expires', async () => {
    const u = await aPublicPlayer(base.db.prisma);
    const old = (await a.app.auth.issueAccessToken(u.id)).token;
    const cli = await runCli(['keys', 'rotate'], base.db.url!);
    expect(cli.code).toBe(0);
    const kid = /current key: (\S+)/.exec(cli.out)?.[1];
    expect(kid).toBeTruthy();
    // both learn of it through the bus within 2 s
    expect(
      await within(2000, async () => a.app.auth.keys.signing().kid === kid && b.app.auth.keys.signing().kid === kid),
    ).not.toBeNull();
    const fresh = (await b.app.auth.issueAccessToken(u.id)).token;
    expect(kidOf(fresh)).toBe(kid);
    expect((await me(a, fresh)).data?.me?.databaseId).toBe(u.id);
    expect((await me(b, old)).data?.me?.databaseId).toBe(u.id); // the previous key still verifies
    const jwks = (await (await fetch(`${a.url}/.well-known/jwks.json`)).json()) as { keys: { kid: string }[] };
    expect(jwks.keys.map((k) => k.kid).sort()).toEqual([kid, kidOf(old)].sort());

    // its verification time over (as if its tokens' TTL had passed): the old token is refused everywhere
    await base.db.prisma.serverKey.updateMany({
      where: { kid: kidOf(old) },
      data: { verifyUntil: new Date(Date.now() - 1000) },
    });
    await a.app.auth.keys.reload();
    await b.app.auth.keys.reload();
    for (const inst of [a, b])
      expect((await me(inst, old)).errors?.[0].message).toBe('Access token is signed with an unknown key');
  });

  it('a process that missed the announcement re-reads the keys on an unknown kid', async () => {
    const u = await aPublicPlayer(base.db.prisma);
    const { kid } = await rotateAccessKey(base.db.prisma, 3600); // not announced
    const third = await DatabaseKeyRing.open(base.db.prisma);
    expect(third.signing().kid).toBe(kid);
    expect(a.app.auth.keys.signing().kid).not.toBe(kid);
    await new Promise((r) => setTimeout(r, 1100)); // re-reads are at most once a second
    const { SignJWT } = await import('jose');
    const token = await new SignJWT({})
      .setProtectedHeader({ alg: 'ES256', kid })
      .setSubject(u.id)
      .setIssuer('bpigraph')
      .setAudience('bpigraph-api')
      .setExpirationTime('5m')
      .sign(third.signing().key);
    expect((await me(a, token)).data?.me?.databaseId).toBe(u.id);
    expect(a.app.auth.keys.signing().kid).toBe(kid);
  });
  it('two rotations at once (two CLIs): one after the other under the lock, one current key', async () => {
    const before = a.app.auth.keys.signing().kid;
    const [x, y] = await Promise.all([rotateAccessKey(base.db.prisma, 3600), rotateAccessKey(base.db.prisma, 3600)]);
    expect(x.kid).not.toBe(y.kid);
    const live = await base.db.prisma.serverKey.findMany({
      where: { purpose: 'access', retiredAt: null },
      select: { kid: true },
    });
    // the later of the two is current; it retired the earlier one (which retired the one before)
    expect(live).toHaveLength(1);
    expect([x.kid, y.kid]).toContain(live[0].kid);
    const first = live[0].kid === x.kid ? y : x;
    expect(first.retired).toContain(before);
    expect(live[0].kid === x.kid ? x.retired : y.retired).toEqual([first.kid]);
  });
});
