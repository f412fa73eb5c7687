import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { App } from '../app';
import { publicBaseUrl } from '../config';
import { MAX_IMAGE_BYTES, MAX_IMAGE_PIXELS, MAX_IMAGE_SIDE } from '../domain/image-check';
import {
  PROFILE_IMAGE_MEDIA_TYPES,
  PROFILE_IMAGE_SIZES,
  parseProfileImageSize,
  profileImageCacheControl,
  tooLarge,
  unsupportedMedia,
  uploadRefusal,
  type UploadRefusal,
} from '../domain/profile-image';
import { badInput, notFound } from '../errors';
import { contextForRequest, type Context } from '../graphql/context';
import { documentsOf } from '../graphql/documents';
import { deleteProfileImage, findProfileImage, saveProfileImage } from '../modules/users/profile-image.store';
import { profileImageTask } from '../modules/users/profile-image.task';
import { RestProfileImage, RestProfileImageOwner } from './documents/profile-image';
import { sendRestError } from './errors';
import { ErrorBody, errorDocs, NOT_MODIFIED_DOC, routeSchema, type RouteDoc } from './openapi';
import { fileRoute, sendCacheable } from './route';

/**
 * Uploaded profile images (docs/profile-image.md):
 * - PUT /api/v1/me/profile-image — the raw bytes of a PNG, JPEG or WebP (Content-Type one of
 *   those), the caller's own token (no third-party app). Checked by content (src/domain/image-check.ts),
 *   re-encoded in the worker pool to square WebPs of PROFILE_IMAGE_SIZES, stored (ProfileImage) and
 *   User.profileImage pointed at it. 413 / 415 / 400 name the cap; nothing is written then.
 * - DELETE /api/v1/me/profile-image — removes it (204; 404 when there was none).
 * - GET /api/v1/users/{userId}/profile-image?size=256|64&v=<etag> — the WebP, visible as the
 *   profile is (a private player's to themself and approved followers), ETag / If-None-Match 304,
 *   a year's immutable cache when `v` names the current version.
 * Each route runs a fixed GraphQL document first (src/rest/documents/profile-image.ts):
 * RestProfileImageOwner — profileImageOwner, rule Query.profileImageOwner (the writes' gate);
 * RestProfileImage — user(id) { isPublic }, rule Query.user. The bytes come from the store.
 */

const ME_URL = '/api/v1/me/profile-image';
const USER_URL = '/api/v1/users/:userId/profile-image';
/** Decoding and encoding a 4096×4096 image takes seconds on a loaded machine. */
const RENDER_BUDGET_MS = 30_000;

const UploadResponse = z.object({
  profileImage: z.string().describe('The new User.profileImage: the GET URL with ?v=<etag>'),
  etag: z.string(),
  sizes: z.array(z.number().int()),
});

const ImageQuery = z.object({
  size: z
    .string()
    .optional()
    .describe(`Side of the square WebP: ${PROFILE_IMAGE_SIZES.join(' or ')} (default ${PROFILE_IMAGE_SIZES[0]})`),
  v: z.string().optional().describe('The version (etag) from User.profileImage: with it the answer is immutable'),
});

const LIMITS =
  `at most ${MAX_IMAGE_BYTES} bytes (413), PNG, JPEG or WebP by content (415), ` +
  `each side at most ${MAX_IMAGE_SIDE} px and at most ${MAX_IMAGE_PIXELS} pixels (400)`;

const send = (reply: FastifyReply, status: number, body: unknown, headers: Record<string, string> = {}) =>
  reply
    .code(status)
    .headers(headers)
    .header('content-type', 'application/json; charset=utf-8')
    .send(JSON.stringify(body));

const refuse = (reply: FastifyReply, r: UploadRefusal) => send(reply, r.status, r.body);

/** Fastify's own refusals of the body (too long, another media type) in the route's JSON form. */
function bodyErrors(err: Error & { code?: string; statusCode?: number }, _req: FastifyRequest, reply: FastifyReply) {
  if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return refuse(reply, tooLarge());
  if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || err.code === 'FST_ERR_CTP_EMPTY_TYPE')
    return refuse(reply, unsupportedMedia());
  return send(reply, err.statusCode && err.statusCode < 500 ? err.statusCode : 500, { message: err.message });
}

async function handle(app: App, req: FastifyRequest, reply: FastifyReply, run: (ctx: Context) => Promise<unknown>) {
  try {
    return await run(await contextForRequest(app, req));
  } catch (err) {
    return sendRestError(reply, err, app.log, true);
  }
}

/**
 * The writes' gate: the caller, own token only (rule Query.profileImageOwner); their id. The gate is
 * a query, which lets the request read from a replica: the write that follows goes to the primary
 * and is recorded as the player's (read-your-writes, src/http.ts), as before the gate ran.
 */
async function writer(app: App, ctx: Context): Promise<string> {
  await documentsOf(app).run(RestProfileImageOwner, ctx, {});
  ctx.readOnly = false;
  return ctx.viewer!.id;
}

function registerUpload(fastify: FastifyInstance, app: App) {
  fastify.register(async (scope) => {
    // The raw bytes: the media type only routes the body here, the content decides (image-check).
    scope.addContentTypeParser([...PROFILE_IMAGE_MEDIA_TYPES], { parseAs: 'buffer' }, (_req, body, done) =>
      done(null, body),
    );
    const doc: RouteDoc = {
      summary: 'Upload your profile image (raw PNG, JPEG or WebP body)',
      description: `Your own access token only (not a third-party application's). Limits: ${LIMITS}. The image is re-encoded to square WebPs of ${PROFILE_IMAGE_SIZES.join(' and ')} px.`,
      tags: ['profile'],
      responses: {
        200: { description: 'Stored; profileImage now points to it', body: UploadResponse },
        ...errorDocs({
          400: 'Damaged image or over the pixel caps (errors[0].limit)',
          401: 'No or expired bearer token',
          403: 'A third-party application token',
          404: 'No profile for this token',
          413: `Body over ${MAX_IMAGE_BYTES} bytes (errors[0].limit)`,
          415: 'Not a PNG, JPEG or WebP',
          429: 'Rate limited (Retry-After)',
          503: 'The server is busy (Retry-After)',
        }),
      },
      errors: ErrorBody,
      bearer: 'required',
    };
    scope.route({
      method: 'PUT',
      url: ME_URL,
      ...routeSchema(doc),
      // A little over the cap, so that a body just over it still gets the 413 naming the cap from uploadRefusal.
      bodyLimit: MAX_IMAGE_BYTES + 1024,
      errorHandler: (err, req, reply) => {
        void bodyErrors(err, req, reply);
      },
      handler: (req, reply) =>
        handle(app, req, reply, async (ctx) => {
          const userId = await writer(app, ctx);
          if (!Buffer.isBuffer(req.body)) return refuse(reply, unsupportedMedia());
          const refusal = uploadRefusal(req.body);
          if (refusal) return refuse(reply, refusal);
          const bytes = new Uint8Array(req.body.buffer, req.body.byteOffset, req.body.byteLength);
          const renditions = await app.pool.run(
            profileImageTask,
            { bytes, sizes: PROFILE_IMAGE_SIZES },
            { budgetMs: RENDER_BUDGET_MS },
          );
          const port = (fastify.server.address() as { port: number } | null)?.port ?? app.config.port;
          const saved = await saveProfileImage(
            ctx.db,
            userId,
            renditions,
            publicBaseUrl(app.config, port, req.headers.host),
          );
          if (!saved) throw notFound('Profile not found. Use createProfile to create it.');
          return send(reply, 200, { profileImage: saved.url, etag: saved.etag, sizes: [...PROFILE_IMAGE_SIZES] });
        }),
    });
  });
}

export function registerProfileImage(fastify: FastifyInstance, app: App): void {
  registerUpload(fastify, app);

  fastify.route({
    method: 'DELETE',
    url: ME_URL,
    ...routeSchema({
      summary: 'Remove your uploaded profile image',
      description: 'profileImage is cleared when it pointed at the uploaded image (an external URL stays).',
      tags: ['profile'],
      responses: {
        204: { description: 'Removed' },
        ...errorDocs({ 401: 'No or expired bearer token', 403: 'A third-party application token', 404: 'No image' }),
      },
      errors: ErrorBody,
      bearer: 'required',
    }),
    handler: (req, reply) =>
      handle(app, req, reply, async (ctx) => {
        const userId = await writer(app, ctx);
        if (!(await deleteProfileImage(ctx.db, userId))) throw notFound('No uploaded profile image');
        return reply.code(204).send();
      }),
  });

  fileRoute(
    fastify,
    app,
    USER_URL,
    {
      summary: "A player's uploaded profile image (WebP)",
      description:
        "Visible as the profile is: a private player's image only to themself and approved followers (403). " +
        'With ?v=<the current etag> (the URL in User.profileImage) it is cached for a year (immutable); otherwise revalidated by ETag.',
      tags: ['profile'],
      params: z.object({ userId: z.string() }),
      query: ImageQuery,
      responses: {
        200: { description: 'The image', media: 'image/webp' },
        304: NOT_MODIFIED_DOC,
        ...errorDocs({
          400: 'Bad size',
          401: 'Invalid or expired bearer token',
          403: 'Private player',
          404: 'Unknown user or no uploaded image',
        }),
      },
      errors: ErrorBody,
      bearer: 'optional',
    },
    async (ctx, req, reply) => {
      const { userId } = req.params as { userId: string };
      const q = (req.query ?? {}) as Record<string, unknown>;
      const size = parseProfileImageSize(q.size);
      if (size === null) {
        const message = `size must be ${PROFILE_IMAGE_SIZES.join(' or ')}`;
        throw badInput(message, [{ code: 'invalid_enum_value', path: ['size'], message }]);
      }
      const { user } = await documentsOf(app).run(RestProfileImage, ctx, { userId });
      if (!user) throw notFound('User not found'); // the rule (Query.user, VISIBLE) refuses first
      const image = await findProfileImage(ctx.db, userId, size);
      if (!image) throw notFound('No uploaded profile image');
      const cache = {
        etag: `"${image.etag}-${size}"`,
        cacheControl: profileImageCacheControl(user.isPublic, q.v === image.etag),
      };
      return sendCacheable(req, reply, cache, () =>
        reply.code(200).header('content-type', 'image/webp').send(Buffer.from(image.bytes)),
      );
    },
  );
}
