/**
 * The areas of the application, in dependency order (an area only depends on areas above it):
 * their manifests are the one list the application (src/app.ts: setups, recompute steps,
 * listeners), the schema (src/schema.ts: resolvers) and the request context (loaders, services)
 * are built from. Adding an area = one manifest (`src/modules/<area>/index.ts`, which also declares
 * the types of its service and loaders on the context) + one line here.
 */
import { catalogueArea } from './catalogue';
import { usersArea } from './users';
import { authArea } from './auth';
import { scoresArea } from './scores';
import { statsArea } from './stats';
import { rivalsArea } from './rivals';
import { logsArea } from './logs';
import { notesArea } from './notes';
import { patternsArea } from './patterns';
import { rankingsArea } from './rankings';
import { arenaArea } from './arena';
import { bpicalcArea } from './bpicalc';
import { optimizerArea } from './optimizer';
import { socialArea } from './social';

export const AREAS = [
  catalogueArea,
  usersArea,
  authArea,
  scoresArea,
  statsArea,
  rivalsArea,
  logsArea,
  notesArea,
  patternsArea,
  rankingsArea,
  arenaArea,
  bpicalcArea,
  optimizerArea,
  socialArea,
] as const;
