import type { FastifyInstance } from 'fastify';
import type { App } from '../app';
import { registerOAuth } from './oauth';
import { registerTokenRoute } from './token';
import { registerBpiCalc } from './bpicalc';
import { registerProfile } from './profile';
import { registerRecentNotes } from './notes';
import { registerRecommended } from './recommended';
import { registerCharts } from './charts';
import { registerMcp } from './mcp';
import { registerAccountExport, registerScoresExport } from './export';
import { registerCards } from './cards';
import { registerProfileImage } from './profile-image';

/** The four compatibility routes live under /api/v1 (added by their areas). */
export function registerRest(fastify: FastifyInstance, app: App): void {
  registerBpiCalc(fastify, app);
  registerTokenRoute(fastify, app);
  registerOAuth(fastify, app);
  registerRecommended(fastify, app);
  registerCharts(fastify, app);
  registerProfile(fastify, app);
  registerRecentNotes(fastify, app);
  registerMcp(fastify, app);
  registerScoresExport(fastify, app);
  registerAccountExport(fastify, app);
  registerCards(fastify, app);
  registerProfileImage(fastify, app);
}
