import http from 'node:http';
import Fastify from 'fastify';
import { ApolloServer } from '@apollo/server';
import { startStandaloneServer } from '@apollo/server/standalone';
import { fastifyApolloHandler } from '@as-integrations/fastify';
import {
  ApolloServerPluginCacheControlDisabled,
  ApolloServerPluginLandingPageDisabled,
} from '@apollo/server/plugin/disabled';

const port = Number(process.env.PORT);
const fixed = JSON.stringify({ status: 'ok', value: 42 });
const typeDefs = 'type Query { hello: String! }';
const resolvers = { Query: { hello: () => 'world' } };
const plugins = [ApolloServerPluginLandingPageDisabled(), ApolloServerPluginCacheControlDisabled()];

async function main() {
  switch (process.env.LAYER) {
    case 'bare':
      http
        .createServer((_q, s) => {
          s.writeHead(200, { 'content-type': 'application/json' });
          s.end(fixed);
        })
        .listen(port, '127.0.0.1');
      break;
    case 'fastify': {
      const f = Fastify();
      f.get('/json', async () => fixed);
      f.get('/health', async () => 'ok');
      await f.listen({ port, host: '127.0.0.1' });
      break;
    }
    case 'apollo-standalone': {
      const a = new ApolloServer({ typeDefs, resolvers, plugins });
      await startStandaloneServer(a, { listen: { port, host: '127.0.0.1' } });
      break;
    }
    case 'apollo-fastify': {
      const a = new ApolloServer({ typeDefs, resolvers, plugins });
      await a.start();
      const f = Fastify();
      f.route({ method: ['GET', 'POST'], url: '/graphql', handler: fastifyApolloHandler(a) });
      f.get('/health', async () => 'ok');
      await f.listen({ port, host: '127.0.0.1' });
      break;
    }
  }
}
void main();
