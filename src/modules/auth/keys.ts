/**
 * The server's signing keys (docs/cluster-keys.md). Three sources, the first that applies:
 *  - JWT_SECRET set: that secret (HS256), the same in every process that is given it;
 *  - PostgreSQL: keys in the database (ServerKey), shared by every process with no configuration —
 *    created once under an advisory lock, access tokens signed with the current ES256 key (`kid`
 *    in the header), previous keys verifying until their last tokens expire (`keys rotate`);
 *  - PGlite: a secret generated once into DATA_DIR (one process by construction), or an in-memory
 *    one without a data directory.
 * Other keys (cursor sealing, invitation sealing) are derived from a root secret (`root()`): the
 * JWT_SECRET, the database's "root" row, or the file's secret.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from 'jose';
import type { Db } from '../../db/client';

export type KeyAlg = 'HS256' | 'ES256';

export interface SigningKey {
  kid: string;
  alg: KeyAlg;
  /** signs (the secret, or the private key) */
  key: CryptoKey | Uint8Array;
  /** verifies (the secret, or the public key) */
  verifyKey: CryptoKey | Uint8Array;
}

export interface KeyRing {
  readonly source: 'env' | 'database' | 'file' | 'memory';
  /** The key new tokens are signed with. */
  signing(): SigningKey;
  /** The key of a token's header (kid; absent for tokens issued before kids): null when unknown or expired. */
  verifier(kid: string | undefined, alg: string | undefined): Promise<SigningKey | null>;
  /** The secret the other keys are derived from (AuthService.deriveKey). */
  root(): Uint8Array;
  /** Public keys of the live asymmetric keys (the JWKS endpoint); none for a shared secret. */
  publicKeys(): JWK[];
  /** Reads the keys again (another process rotated them). */
  reload(): Promise<void>;
}

/** The cache name the rotation announces on the cluster bus (every process reloads its ring). */
export const KEYS_CACHE = 'auth.keys';
/** Advisory lock of key creation and rotation (one creator at a time across the cluster). */
export const KEYS_LOCK_KEY = 727_303;
/** A retired key verifies this long past its last token's expiry (clock skew, a process that signed late). */
export const ROTATION_GRACE_SECONDS = 300;

const kidOf = (secret: Uint8Array) => `hs-${crypto.createHash('sha256').update(secret).digest('hex').slice(0, 16)}`;

/** One shared secret (JWT_SECRET, the data directory's file, or a process-local one). */
export class SecretKeyRing implements KeyRing {
  private readonly key: SigningKey;
  constructor(
    private readonly secret: Uint8Array,
    readonly source: 'env' | 'file' | 'memory',
  ) {
    this.key = { kid: kidOf(secret), alg: 'HS256', key: secret, verifyKey: secret };
  }
  signing() {
    return this.key;
  }
  async verifier(kid: string | undefined, alg: string | undefined) {
    return (kid === undefined || kid === this.key.kid) && alg === 'HS256' ? this.key : null;
  }
  root() {
    return this.secret;
  }
  publicKeys() {
    return [];
  }
  async reload() {}
}

/** The data directory's secret, generated once (today's single-process behaviour). */
export function fileSecret(dataDir: string): Uint8Array {
  const file = path.join(dataDir, 'jwt-secret');
  if (!fs.existsSync(file)) {
    fs.mkdirSync(dataDir, { recursive: true });
    try {
      fs.writeFileSync(file, crypto.randomBytes(32).toString('base64url'), { mode: 0o600, flag: 'wx' });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err; // another process won the race
    }
  }
  return new TextEncoder().encode(fs.readFileSync(file, 'utf8').trim());
}

interface KeyRow {
  kid: string;
  purpose: string;
  alg: string;
  secret: string;
  publicJwk: unknown;
  retiredAt: Date | null;
  verifyUntil: Date | null;
}

interface LoadedKey extends SigningKey {
  publicJwk: JWK | null;
  verifyUntil: Date | null;
}

/** A new ES256 access key as a ServerKey row. */
async function newAccessKeyRow() {
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  const pub = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(pub);
  const priv = await exportJWK(privateKey);
  return {
    kid,
    purpose: 'access',
    alg: 'ES256',
    secret: JSON.stringify(priv),
    publicJwk: { ...pub, kid, alg: 'ES256', use: 'sig' },
  };
}

const newRootRow = () => ({
  kid: `root-${crypto.randomBytes(8).toString('hex')}`,
  purpose: 'root',
  alg: 'HKDF',
  secret: crypto.randomBytes(32).toString('base64url'),
});

/** The keys in PostgreSQL (ServerKey), shared by every process. */
export class DatabaseKeyRing implements KeyRing {
  readonly source = 'database' as const;
  private keys = new Map<string, LoadedKey>();
  private current!: LoadedKey;
  private rootSecret!: Uint8Array;
  private lastLoad = 0;
  private loading: Promise<void> | null = null;

  private constructor(private readonly db: Db) {}

  /** Opens the ring: creates the first keys under the advisory lock when there are none. */
  static async open(db: Db): Promise<DatabaseKeyRing> {
    await ensureKeys(db);
    const ring = new DatabaseKeyRing(db);
    await ring.reload();
    return ring;
  }

  signing() {
    return this.current;
  }

  async verifier(kid: string | undefined, alg: string | undefined) {
    if (kid === undefined) return null;
    let k = this.keys.get(kid);
    // An unknown kid may be a key another process created since our last read: read again, at most once a second.
    if (!k && Date.now() - this.lastLoad > 1000) {
      await this.reload();
      k = this.keys.get(kid);
    }
    if (!k || k.alg !== alg) return null;
    if (k.verifyUntil && k.verifyUntil.getTime() <= Date.now()) return null;
    return k;
  }

  root() {
    return this.rootSecret;
  }

  publicKeys() {
    const now = Date.now();
    return [...this.keys.values()]
      .filter((k) => k.publicJwk && (!k.verifyUntil || k.verifyUntil.getTime() > now))
      .map((k) => k.publicJwk!);
  }

  reload(): Promise<void> {
    this.loading ??= this.load().finally(() => (this.loading = null));
    return this.loading;
  }

  private async load() {
    const rows = await this.db.$queryRawUnsafe<KeyRow[]>(
      `SELECT "kid", "purpose", "alg", "secret", "publicJwk", "retiredAt", "verifyUntil" FROM "ServerKey"
        WHERE "verifyUntil" IS NULL OR "verifyUntil" > now() ORDER BY "createdAt" DESC, "kid"`,
    );
    const keys = new Map<string, LoadedKey>();
    let current: LoadedKey | undefined;
    let root: Uint8Array | undefined;
    for (const r of rows) {
      if (r.purpose === 'root') {
        root ??= new Uint8Array(Buffer.from(r.secret, 'base64url'));
        continue;
      }
      if (r.purpose !== 'access' || r.alg !== 'ES256') continue;
      const key = (await importJWK(JSON.parse(r.secret) as JWK, 'ES256')) as CryptoKey;
      const publicJwk = r.publicJwk as JWK;
      const verifyKey = (await importJWK(
        { kty: publicJwk.kty, crv: publicJwk.crv, x: publicJwk.x, y: publicJwk.y },
        'ES256',
      )) as CryptoKey;
      const k: LoadedKey = { kid: r.kid, alg: 'ES256', key, verifyKey, publicJwk, verifyUntil: r.verifyUntil };
      keys.set(r.kid, k);
      if (!r.retiredAt && !current) current = k;
    }
    if (!current || !root)
      throw new Error(
        'ServerKey holds no current access key or no root secret (run the server once, or `keys rotate`)',
      );
    this.keys = keys;
    this.current = current;
    this.rootSecret = root;
    this.lastLoad = Date.now();
  }
}

/** Creates the root secret and the first access key when absent — once across the cluster (advisory lock). */
export async function ensureKeys(db: Db): Promise<void> {
  const have = await db.serverKey.findMany({ where: { retiredAt: null }, select: { purpose: true } });
  if (have.some((k) => k.purpose === 'access') && have.some((k) => k.purpose === 'root')) return;
  const access = await newAccessKeyRow();
  await db.$transaction(async (tx) => {
    await tx.$queryRawUnsafe('SELECT 1 AS ok FROM (SELECT pg_advisory_xact_lock($1)) AS l', KEYS_LOCK_KEY);
    const live = await tx.serverKey.findMany({ where: { retiredAt: null }, select: { purpose: true } });
    if (!live.some((k) => k.purpose === 'root')) await tx.serverKey.create({ data: newRootRow() });
    if (!live.some((k) => k.purpose === 'access')) await tx.serverKey.create({ data: access });
  });
}

/**
 * A new current access key; the previous one stops signing and verifies for `tokenTtlSeconds`
 * (+ ROTATION_GRACE_SECONDS) more — every token it signed expires before. Returns both kids.
 */
export async function rotateAccessKey(db: Db, tokenTtlSeconds: number): Promise<{ kid: string; retired: string[] }> {
  await ensureKeys(db);
  const row = await newAccessKeyRow();
  return db.$transaction(async (tx) => {
    await tx.$queryRawUnsafe('SELECT 1 AS ok FROM (SELECT pg_advisory_xact_lock($1)) AS l', KEYS_LOCK_KEY);
    const old = await tx.serverKey.findMany({ where: { purpose: 'access', retiredAt: null }, select: { kid: true } });
    const now = new Date();
    await tx.serverKey.updateMany({
      where: { purpose: 'access', retiredAt: null },
      data: {
        retiredAt: now,
        verifyUntil: new Date(now.getTime() + (tokenTtlSeconds + ROTATION_GRACE_SECONDS) * 1000),
      },
    });
    await tx.serverKey.create({ data: { ...row, createdAt: now } });
    return { kid: row.kid, retired: old.map((k) => k.kid) };
  });
}

/** The key ring for this process (see the file comment for the order). */
export async function openKeyRing(opts: {
  jwtSecret?: string;
  db: Db;
  shared: boolean;
  dataDir?: string;
  persist: boolean;
}): Promise<KeyRing> {
  if (opts.jwtSecret) return new SecretKeyRing(new TextEncoder().encode(opts.jwtSecret), 'env');
  if (opts.shared) return DatabaseKeyRing.open(opts.db);
  if (opts.persist && opts.dataDir) return new SecretKeyRing(fileSecret(opts.dataDir), 'file');
  return new SecretKeyRing(crypto.randomBytes(32), 'memory');
}
