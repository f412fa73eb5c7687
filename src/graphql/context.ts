import type { App } from '../app';
import type { Db } from '../db/client';
import { createLoaders, type Loaders } from './loaders';

export interface Viewer {
  id: string;
  isAdmin: boolean;
  /** OAuth scopes when the caller is a third-party app; undefined = full access (own token). */
  scopes?: readonly ('read' | 'write')[];
}

/** Per-request context, built the same way for GraphQL and the REST adapter. */
export interface Context {
  app: App;
  db: Db;
  viewer: Viewer | null;
  loaders: Loaders;
  ip: string;
}

export function createContext(app: App, viewer: Viewer | null, ip = ''): Context {
  return { app, db: app.db, viewer, loaders: createLoaders(app.db), ip };
}
