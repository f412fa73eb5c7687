// Loaded with `node --import` by `npm test` (next to `-r @swc-node/register`, the loader `npm start`
// uses): jest-light-runner imports each test file with import(); a .ts URL is handed to the
// CommonJS loader, where @swc-node/register compiles it like every module it requires.
import { register } from 'node:module';

register(
  'data:text/javascript,' +
    encodeURIComponent(`
export async function load(url, context, next) {
  if (/\\.ts(\\?|$)/.test(url)) return { format: 'commonjs', shortCircuit: true };
  return next(url, context);
}`),
);
